import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { checkSpec } from './checkSpec.ts';
import { miniSpec } from './fixtures/miniSpec.ts';

type Json = unknown;

/** Every path (list of keys) into a JSON value, the root included. */
function paths(v: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push(...paths(x, [...prefix, i]));
    });
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  }
  return out;
}

type Mutation = { at: number; op: 'replace' | 'delete' | 'rename' | 'add'; value: Json; key: string };

function mutate(spec: Json, mutations: readonly Mutation[]): Json {
  let root = structuredClone(spec);
  for (const m of mutations) {
    const all = paths(root);
    const path = all[m.at % all.length]!;
    if (path.length === 0) {
      if (m.op === 'replace') root = m.value;
      continue;
    }
    let parent = root as Record<string | number, Json>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
    const last = path[path.length - 1]!;
    if (m.op === 'replace') parent[last] = m.value;
    else if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (m.op === 'rename' && !Array.isArray(parent)) {
      parent[m.key] = parent[last];
      delete parent[last];
    } else if (m.op === 'add') {
      const target = parent[last];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
        (target as Record<string, Json>)[m.key] = m.value;
      }
    }
  }
  return root;
}

const keyArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'constructor',
    '__proto__',
    'toString',
    'select',
    'id',
    'title',
    'status',
    'ticket',
    'agent',
  ),
);
const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'ticket',
    'open',
    'agent',
    'me',
    'title = me',
    'count(',
    'TITLE_TOO_LONG',
    'maxTitleLength',
    '((',
  ),
);
const mutationArb = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'rename', 'add') as fc.Arbitrary<Mutation['op']>,
  value: valueArb,
  key: keyArb,
});

/** validateSpec, then (when valid) every lint: both must answer with data. */
function returnsData(input: unknown): void {
  const r = checkSpec(input);
  expect(Array.isArray(r.diagnostics)).toBe(true);
  // A spec comes back exactly when there are no errors.
  expect(r.spec === null).toBe(r.diagnostics.some((d) => d.severity === 'error'));
  for (const d of r.diagnostics) {
    // The safety net in validateSpec turns a crash into this message; the fuzz must never reach it.
    expect(d.message).not.toMatch(/^(the specification could not be checked|the lints failed)/);
    expect(typeof d.path).toBe('string');
    expect(d.message.length).toBeGreaterThan(0);
  }
}

describe('validateSpec and checkSpec never throw', () => {
  it('on arbitrary JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), returnsData), { numRuns: 2000 });
  });

  it('on arbitrary JavaScript values', () => {
    fc.assert(fc.property(fc.anything({ withObjectString: true, withNullPrototype: true }), returnsData), {
      numRuns: 1000,
    });
  });

  it('on mutations of a valid specification', () => {
    const base = miniSpec();
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), (ms) =>
        returnsData(mutate(base, ms)),
      ),
      { numRuns: 3000 },
    );
  });

  it('on mutations of the reference apps', () => {
    for (const base of [helpdesk, expenses]) {
      fc.assert(
        fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (ms) =>
          returnsData(mutate(base, ms)),
        ),
        { numRuns: 500 },
      );
    }
  });

  it('on rule strings of every kind in every rule position', () => {
    const sites = [
      (s: ReturnType<typeof miniSpec>, t: string) => (s.states.ticket!.transitions.solve!.guard = t),
      (s: ReturnType<typeof miniSpec>, t: string) => (s.roles.permissions.customer!.ticket!.read = t),
      (s: ReturnType<typeof miniSpec>, t: string) =>
        (s.states.ticket!.transitions.solve!.set = { solvedAt: t }),
      (s: ReturnType<typeof miniSpec>, t: string) => (s.screens.tickets!.where = t),
    ];
    const token = fc.constantFrom(
      'title',
      'me',
      'now',
      'days(',
      ')',
      '(',
      'count(comment where ticket = this)',
      '=',
      'and',
      'in',
      'is',
      'empty',
      'agent',
      'reopenWindowDays',
      '"x"',
      '1',
      '-',
      'not',
      'requester.name',
      'this.title',
      ',',
      'sum(',
    );
    fc.assert(
      fc.property(fc.nat(sites.length - 1), fc.array(token, { maxLength: 12 }), (i, tokens) => {
        const s = miniSpec();
        sites[i]!(s, tokens.join(' '));
        returnsData(s);
      }),
      { numRuns: 2000 },
    );
  });
});
