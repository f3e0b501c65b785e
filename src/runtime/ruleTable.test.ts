import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { jsonModuleValue } from '../../test/support/jsonModule.ts';
import { resolve } from '../model/resolve.ts';
import { ruleSites } from '../spec/ruleSites.ts';
import type { AppSpec } from '../spec/types.ts';
import { parsedRule, typedRule } from './ruleChecker.ts';
import { ruleKey } from './ruleKey.ts';
import { type RuleTable, ruleTable, ruleTableModule } from './ruleTable.ts';

/** A tree with its positions zeroed, as the table's module carries it. */
const zeroed = (tree: unknown) =>
  JSON.parse(JSON.stringify(tree, (k, v) => (k === 'span' ? { start: 0, end: 0 } : v)));

/** The table as the browser gets it: the module's JSON, parsed. */
const shipped = (spec: AppSpec) => {
  return jsonModuleValue(ruleTableModule(ruleTable(resolve(spec)))) as RuleTable;
};

describe.each<[string, AppSpec]>([
  ['helpdesk', helpdesk],
  ['expenses', expenses],
])('the rule table of %s', (_name, spec) => {
  it("holds every boolean rule of the spec with the checker's own tree", () => {
    const table = shipped(spec);
    const sites = ruleSites(spec).filter((s) => s.expect === 'boolean' && s.entity !== null);
    expect(sites.length).toBeGreaterThan(20);
    for (const s of sites) {
      const key = ruleKey(s.entity as string, s.text);
      expect(Object.hasOwn(table.typed, key), key).toBe(true);
      expect(table.typed[key], key).toEqual(zeroed(typedRule(resolve(spec), s.entity as string, s.text)));
    }
  });

  it('holds the parse tree of every read permission', () => {
    const table = shipped(spec);
    const reads = Object.values(spec.roles.permissions).flatMap((perms) =>
      Object.values(perms).flatMap((p) => (typeof p.read === 'string' ? [p.read] : [])),
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(table.parsed[read], read).toEqual(zeroed(parsedRule(read)));
  });
});

describe('ruleTable', () => {
  it('keeps a rule that does not check as null (the runtime leaves it to the server)', () => {
    const broken = {
      ...helpdesk,
      screens: {
        ...helpdesk.screens,
        odd: { ...Object.values(helpdesk.screens)[0], where: 'nosuchfield = 1' },
      },
    } as typeof helpdesk;
    const entity = (broken.screens as Record<string, { entity?: string }>).odd?.entity as string;
    expect(ruleTable(resolve(broken)).typed[ruleKey(entity, 'nosuchfield = 1')]).toBeNull();
  });
});
