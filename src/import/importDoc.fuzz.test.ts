import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec } from '../spec/types.ts';
import { tasks } from './fixtures/tasks.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

/**
 * Fuzzed and mutated documents: whatever the text, `importDoc` ends in a result — a valid
 * specification, or errors that each point at a line and column of the document — never an
 * exception (a reader that threw shows up as "could not be read") and never a hang.
 *
 * The seed is a small but complete document (every section and table kind, a declared call);
 * the derived-calls reference and the state diagram are dropped because the importer does not
 * read them and the Markdown parser's time grows with the text.
 */
const small: AppSpec = {
  ...tasks,
  calls: {
    declared: {
      notify: {
        description: 'Tells the assignee.',
        method: 'POST',
        path: '/notify/:id',
        service: 'mailer',
        payload: { taskId: 'uuid', 'note?': 'string', tags: ['string'] },
        response: { sent: 'boolean', items: [{ id: 'uuid' }] },
        roles: ['lead'],
        error: 'NOT_YOURS',
      },
    },
  },
};

function seedDocument(): string {
  const full = renderDoc(small);
  const derived = full.indexOf('### Derived calls');
  const declared = full.indexOf('### Declared calls');
  const builtins = full.indexOf('### Built-in errors');
  const constants = full.indexOf('## 9.');
  return (full.slice(0, derived) + full.slice(declared, builtins) + full.slice(constants)).replace(
    /```mermaid[\s\S]*?```\n\n/g,
    '',
  );
}

const SEED = seedDocument();
const LINES = SEED.split('\n');

const TOKENS = [
  '|',
  '`',
  '``',
  '#',
  '## ',
  '### ',
  '#### ',
  '**',
  '<br>',
  '<!--',
  '-->',
  '\n',
  '\n\n',
  '- ',
  ': ',
  '(',
  ')',
  '{',
  '}',
  ',',
  ';',
  'yes',
  '✓',
  'x',
  'never',
  'always',
  'when ',
  '(note 1)',
  '(note 99)',
  '(from Member)',
  '; otherwise `X`',
  'Must hold: ',
  'Checked only when ',
  'Shown on ',
  ' set to ',
  ' must be at least ',
  ' characters long',
  '{titleMax}',
  '\\|',
  '| --- |',
  '```ts\n// Payload\n{ a: ',
  'reference to ',
  'one of: ',
  '"',
  "'",
  '\u0000',
  '\uE000',
];

type Mutation =
  | { kind: 'deleteLine'; at: number }
  | { kind: 'duplicateLine'; at: number }
  | { kind: 'swapLines'; at: number; with: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'deleteRange'; at: number; length: number }
  | { kind: 'truncate'; at: number };

const text = fc.oneof(
  fc.constantFrom(...TOKENS),
  fc.string({ maxLength: 12 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 4 }).map((a) => a.join('')),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text }),
  fc.record({
    kind: fc.constant('deleteRange' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function apply(doc: string, m: Mutation): string {
  const lines = doc.split('\n');
  const li = (n: number) => n % Math.max(1, lines.length);
  const ci = (n: number) => n % (doc.length + 1);
  switch (m.kind) {
    case 'deleteLine':
      lines.splice(li(m.at), 1);
      return lines.join('\n');
    case 'duplicateLine':
      lines.splice(li(m.at), 0, lines[li(m.at)] ?? '');
      return lines.join('\n');
    case 'swapLines': {
      const [a, b] = [li(m.at), li(m.with)];
      [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
      return lines.join('\n');
    }
    case 'insert':
      return doc.slice(0, ci(m.at)) + m.text + doc.slice(ci(m.at));
    case 'deleteRange':
      return doc.slice(0, ci(m.at)) + doc.slice(ci(m.at) + m.length);
    case 'truncate':
      return doc.slice(0, Math.max(ci(m.at), Math.floor(doc.length / 2)));
  }
}

/** What must hold for any document; returns how long the import took. */
function checkTotal(doc: string): number {
  const started = performance.now();
  const r = importDoc(doc);
  const ms = performance.now() - started;
  const lineCount = doc.split('\n').length;
  const crashed = r.diagnostics.filter(
    (d) => d.message.includes('could not be read') || d.message.includes('could not be checked'),
  );
  expect(crashed).toEqual([]);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  expect(r.spec === null).toBe(errors.length > 0);
  for (const d of r.diagnostics) {
    expect(d.at, `${d.path}: ${d.message}`).toBeDefined();
    expect(d.at?.line).toBeGreaterThanOrEqual(1);
    expect(d.at?.line).toBeLessThanOrEqual(lineCount + 1);
    expect(d.at?.column).toBeGreaterThanOrEqual(1);
    expect(d.message.length).toBeGreaterThan(0);
  }
  if (r.spec) {
    // A document that imports is a specification like any other: its document imports back to it.
    const again = importDoc(renderDoc(r.spec));
    expect(normalizeSpec(again.spec as AppSpec)).toEqual(normalizeSpec(r.spec));
  }
  return ms;
}

/**
 * Runs: 2000 arbitrary texts and 600 mutated documents by default (each valid mutant is also
 * round-tripped), bounded so the suite stays within its CI budget; NINEFOLD_FUZZ_RUNS raises both.
 */
const RUNS = Number(process.env.NINEFOLD_FUZZ_RUNS ?? 2000);
const MUTANTS = process.env.NINEFOLD_FUZZ_RUNS ? RUNS : 600;

describe('importDoc on fuzzed and mutated documents', () => {
  it('the seed imports cleanly (so mutations start from a valid document)', () => {
    const r = importDoc(SEED);
    expect(r.diagnostics).toEqual([]);
    expect(LINES.length).toBeGreaterThan(50);
  });

  it(
    'mutated documents end in a specification or positioned errors, never an exception or a hang',
    () => {
      let slowest = 0;
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 5 }), (ms) => {
          slowest = Math.max(slowest, checkTotal(ms.reduce(apply, SEED)));
        }),
        { numRuns: MUTANTS, seed: Number(process.env.NINEFOLD_FUZZ_SEED ?? 15) },
      );
      // No input makes the importer crawl (a backtracking pattern would show up here).
      expect(slowest).toBeLessThan(20_000);
    },
    30 * 60_000,
  );

  it(
    'arbitrary Markdown-like text ends in positioned errors, never an exception or a hang',
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.oneof(fc.constantFrom(...TOKENS, ...LINES.slice(0, 80)), fc.string()), {
            maxLength: 40,
          }),
          (parts) => {
            checkTotal(parts.join(''));
          },
        ),
        { numRuns: RUNS, seed: Number(process.env.NINEFOLD_FUZZ_SEED ?? 15) },
      );
    },
    30 * 60_000,
  );
});
