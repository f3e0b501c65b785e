import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { billing } from '../../test/enforcement/support/billing.ts';
import { computedHops } from '../model/computedDependents.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from './compileMigration.ts';
import { emitRecompute } from './emitRecompute.ts';

const recomputeLines = (sql: string) => sql.split('\n').filter((l) => l.includes('recompute'));

describe('emitRecompute', () => {
  it('puts one trigger on each referenced table, on the columns the rules read', () => {
    const model = resolve(billing);
    expect(emitRecompute(model, 'organisation')).toContain(
      'create or replace trigger ninefold_38_recompute after update of currency on public.organisation for each row when (new.currency is distinct from old.currency)',
    );
    const project = emitRecompute(model, 'project');
    expect(project).toContain('after update of currency, rate on public.project');
    // Set-based, naming the computed columns so the next link's `update of` trigger fires.
    expect(project).toContain(
      'update public.time_entry x set currency = x.currency, amount = x.amount where x.project = new.id;',
    );
    expect(emitRecompute(model, 'timeEntry')).toBe('');
  });

  it('finds the dependents through an index on every reference it follows', () => {
    const model = resolve(billing);
    for (const h of computedHops(model)) {
      const t = model.tables.get(h.entity);
      const column = t?.byField.get(h.reference)?.column;
      expect(
        t?.indexes.some((i) => (i.columns ?? [i.column])[0] === column && !i.only),
        `${h.entity}.${h.reference}`,
      ).toBe(true);
    }
  });

  it('is the same for both targets, and absent where no computed field reads a reference', () => {
    expect(recomputeLines(compileMigration(billing, { target: 'supabase' }))).toEqual(
      recomputeLines(compileMigration(billing, { target: 'embedded' })),
    );
    for (const spec of [helpdesk, expenses] as AppSpec[])
      expect(recomputeLines(compileMigration(spec))).toEqual([]);
  });
});
