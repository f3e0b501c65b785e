import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { specArb } from '../../test/generated/specArb.ts';
import { jsonModuleValue } from '../../test/support/jsonModule.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkFromTable, type ModelRuleTable, modelRuleKey, modelRuleTableModule } from './modelRuleTable.ts';
import { readAll, recordModelRuleTable } from './recordModelRuleTable.ts';
import { resolve } from './resolve.ts';

// The model's checks come from `built.table` while it is set, as builtModelRuleCheck.ts answers
// them in a build; from the parser and checker otherwise.
const built = vi.hoisted(() => ({ table: undefined as ModelRuleTable | undefined }));
vi.mock('./modelRuleCheck.ts', async (original) => {
  const real = await original<typeof import('./modelRuleCheck.ts')>();
  return {
    ...real,
    checkRule: (...args: Parameters<typeof real.checkRule>) =>
      built.table ? checkFromTable(built.table, args[1], args[2]) : real.checkRule(...args),
  };
});

/** The table as a build ships it: the module's JSON, parsed. */
const shipped = (table: ModelRuleTable) => jsonModuleValue(modelRuleTableModule(table)) as ModelRuleTable;

/** A model as plain data, every lazy part read (its functions as names: they are rebuilt alike). */
const plain = (value: unknown, path = new Set<unknown>()): unknown => {
  if (typeof value === 'function') return `[function ${value.name}]`;
  if (value === null || typeof value !== 'object') return value;
  if (path.has(value)) return '[cycle]';
  path.add(value);
  const out =
    value instanceof Map
      ? [...value].map(([k, v]) => [k, plain(v, path)])
      : value instanceof Set
        ? [...value].map((v) => plain(v, path))
        : Array.isArray(value)
          ? value.map((v) => plain(v, path))
          : Object.fromEntries(
              Object.keys(value).map((k) => [k, plain((value as Record<string, unknown>)[k], path)]),
            );
  path.delete(value);
  return out;
};

/** The model of `spec` resolved twice, from fresh copies: by the checker, and from the shipped table. */
const bothWays = (spec: AppSpec) => {
  const table = shipped(recordModelRuleTable(spec));
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const checked = resolve(structuredClone(spec));
    readAll(checked);
    built.table = table;
    const fromTable = resolve(structuredClone(spec));
    readAll(fromTable);
    return { table, checked: plain(checked), fromTable: plain(fromTable), missed: errors.mock.calls };
  } finally {
    built.table = undefined;
    errors.mockRestore();
  }
};

describe.each<[string, AppSpec]>([
  ['helpdesk', helpdesk],
  ['expenses', expenses],
  ['tasks', tasks],
])("the build's model rule table of %s", (_name, spec) => {
  it('gives the same model as the parser and checker, with every check in the table', () => {
    const { table, checked, fromTable, missed } = bothWays(spec);
    expect(Object.keys(table).length).toBeGreaterThan(10);
    expect(missed).toEqual([]);
    expect(fromTable).toEqual(checked);
  });
});

describe('recordModelRuleTable on generated specifications', () => {
  it('holds every check their models make (the same model either way)', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const { checked, fromTable, missed } = bothWays(spec);
        expect(missed).toEqual([]);
        expect(fromTable).toEqual(checked);
      }),
      { seed: 20_261_128, numRuns: 40 },
    );
  });
});

describe('checkFromTable', () => {
  it('reads a check the table lacks as a rule that does not check, and says so once', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const scope = { entity: 'ticket', expect: 'boolean' as const };
      for (let i = 0; i < 2; i++)
        expect(checkFromTable({}, 'status = "open" and 1 = 2', scope)).toMatchObject({
          ok: false,
          errors: [{ code: 'rule/syntax', message: 'the build did not check this rule' }],
        });
      expect(errors.mock.calls).toEqual([
        [expect.stringContaining(modelRuleKey('status = "open" and 1 = 2', scope))],
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it('keeps apart the same text checked for another entity or as a value', () => {
    const keys = [
      modelRuleKey('title', { entity: 'ticket' }),
      modelRuleKey('title', { entity: 'ticket', expect: 'value' }),
      modelRuleKey('title', { entity: 'reply' }),
      modelRuleKey('title', { entity: null }),
    ];
    expect(new Set(keys).size).toBe(4);
    expect(keys[0]).toBe(modelRuleKey('title', { entity: 'ticket', expect: 'boolean' }));
  });
});
