import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec, ConstantValue, EnumValueSpec } from '../spec/types.ts';
import { tasks } from './fixtures/tasks.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

/**
 * The round trip as a property: variations of the hand-written fixture — labels, help, messages,
 * descriptions and constants drawn from wide alphabets (Markdown's own `* _ | \` # [ ]` included),
 * enum values with labels and colours, list/search flags — survive `import(doc(spec))`, and the
 * document of the result is the document we started from.
 */

const WORD = fc.stringMatching(/^[A-Za-zÀ-ÿ][a-zà-ÿ0-9]{0,8}$/);
/** A label: two or more words, so it can never be mistaken for a key. */
const LABEL = fc.array(WORD, { minLength: 2, maxLength: 3 }).map((w) => w.join(' '));
/** Free text (help, messages, descriptions): starts with a letter, any inline characters after. */
const FREE = fc
  .tuple(
    WORD,
    fc.string({
      unit: fc.constantFrom(...'abc XYZ 019 *_|`#[]\\\'"(){}:;,.!?-–é€'.split('')),
      maxLength: 40,
    }),
  )
  .map(([w, rest]) => `${w}${rest}`.trim())
  .filter((t) => !t.endsWith('\\'));
const CODE_WORD = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);

const CONSTANT: fc.Arbitrary<ConstantValue> = fc.oneof(
  fc.integer({ min: -1000, max: 100000 }),
  fc.double({ min: 0, max: 1000, noNaN: true }).map((n) => Math.round(n * 100) / 100),
  fc.boolean(),
  FREE,
  fc.constantFrom('10', 'yes', 'EUR, USD', ''),
  fc.uniqueArray(CODE_WORD, { maxLength: 4 }),
);

const variation = fc.record({
  summary: FREE,
  labels: fc.uniqueArray(LABEL, {
    minLength: 8,
    maxLength: 8,
    comparator: (a, b) => a.toLowerCase() === b.toLowerCase(),
  }),
  helps: fc.array(fc.option(FREE, { nil: undefined }), { minLength: 8, maxLength: 8 }),
  flags: fc.array(
    fc.record({
      list: fc.option(fc.boolean(), { nil: undefined }),
      search: fc.option(fc.boolean(), { nil: undefined }),
    }),
    {
      minLength: 8,
      maxLength: 8,
    },
  ),
  values: fc.array(
    fc.record({
      label: fc.option(LABEL, { nil: undefined }),
      color: fc.option(fc.constantFrom('red', 'gray', '#ff8800'), { nil: undefined }),
    }),
    { minLength: 3, maxLength: 3 },
  ),
  messages: fc.array(FREE, { minLength: 3, maxLength: 3 }),
  stateDescription: FREE,
  roleDescription: FREE,
  constant: CONSTANT,
  unit: fc.option(fc.constantFrom('count', 'days', 'EUR', 'MB'), { nil: undefined }),
});

function vary(v: Variation): AppSpec {
  const spec = structuredClone(tasks) as AppSpec;
  spec.purpose.summary = v.summary;
  const task = spec.entities.task as AppSpec['entities'][string];
  Object.entries(task.fields).forEach(([, f], i) => {
    f.label = v.labels[i];
    if (v.helps[i] === undefined) delete f.help;
    else f.help = v.helps[i];
    const flags = v.flags[i];
    if (flags?.list === undefined) delete f.list;
    else f.list = flags.list;
    if (flags?.search === undefined) delete f.search;
    else f.search = flags.search;
  });
  const priority = task.fields.priority;
  if (priority)
    priority.values = ['low', 'normal', 'high'].map((value, i): string | EnumValueSpec => {
      const x = v.values[i];
      return x?.label === undefined && x?.color === undefined ? value : { value, ...x };
    });
  Object.values(spec.errors).forEach((e, i) => {
    e.message = v.messages[i] ?? e.message;
  });
  const open = spec.states.task?.states.open;
  if (open) open.description = v.stateDescription;
  const member = spec.roles.roles.member;
  if (member) member.description = v.roleDescription;
  spec.constants.spare = {
    value: v.constant,
    label: 'A spare constant',
    ...(v.unit ? { unit: v.unit } : {}),
  };
  return spec;
}

type Variation = typeof variation extends fc.Arbitrary<infer T> ? T : never;

describe('import(doc(spec)) as a property', () => {
  it(
    'variations of the fixture round-trip, and their documents are stable',
    () => {
      fc.assert(
        fc.property(variation, (v) => {
          const spec = vary(v);
          const md = renderDoc(spec);
          const r = importDoc(md);
          expect(r.draft, JSON.stringify(r.diagnostics)).not.toBeNull();
          expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(spec));
          expect(renderDoc(r.draft as AppSpec)).toBe(md);
        }),
        { numRuns: Number(process.env.NINEFOLD_ROUNDTRIP_RUNS ?? 40), seed: 15 },
      );
    },
    10 * 60_000,
  );
});
