import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { specArb } from '../../test/generated/specArb.ts';
import { migrationOf } from '../sql/compileMigration.ts';
import { resolve } from './resolve.ts';
import { timeZonesNamed } from './timeZonesNamed.ts';

/** Every zone the migration's SQL names as a literal (`at time zone 'Europe/Berlin'`). */
function literalZonesOfSql(sql: string): string[] {
  return [...sql.matchAll(/at time zone '([^']+)'/gi)].map((m) => m[1] as string);
}

describe('timeZonesNamed: the zones a build keeps in the browser database', () => {
  it('holds every value of an enum a rule takes its zone from (Team Tasks: organisation.timeZone)', () => {
    const zones = timeZonesNamed(resolve(tasks));
    const values = tasks.entities.organisation?.fields.timeZone;
    const enumValues =
      values && 'values' in values && Array.isArray(values.values)
        ? values.values.map((v) => (typeof v === 'string' ? v : v.value))
        : [];
    expect(enumValues.length).toBeGreaterThan(1);
    for (const v of enumValues) expect(zones).toContain(v);
    expect(zones).toContain('UTC');
  });

  it('is UTC alone for an app whose rules read no wall-clock time (Helpdesk)', () => {
    expect([...timeZonesNamed(resolve(helpdesk))]).toEqual(['UTC']);
  });

  it('covers every zone the migration names, on generated specifications', () => {
    let beyondUtc = 0;
    fc.assert(
      fc.property(specArb, (spec) => {
        const model = resolve(spec);
        const named = new Set([...timeZonesNamed(model)].map((z) => z.toLowerCase()));
        const literal = literalZonesOfSql(migrationOf(model, 'embedded'));
        if (literal.some((z) => z.toLowerCase() !== 'utc')) beyondUtc++;
        for (const z of literal) expect(named.has(z.toLowerCase()), z).toBe(true);
      }),
      { numRuns: 40, seed: 20261127 },
    );
    // The generator writes the app's zone into rules often enough for the check to bite.
    expect(beyondUtc).toBeGreaterThan(0);
  });
});
