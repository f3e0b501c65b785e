import { computedHops } from '../model/computedDependents.ts';
import type { AppModel } from '../model/index.ts';
import { IN_TRANSITION } from './emitAuditTriggers.ts';
import { computedColumns, RECOMPUTE_ONLY } from './emitComputed.ts';
import { qualified, quoteLiteral } from './quote.ts';
import { colSql, tableOf, tableRef } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';

/**
 * Computed fields that read a referenced row (`currency: computed 'organisation.currency'`,
 * `amount: computed 'hours * task.rate'`) follow it: an AFTER UPDATE trigger on the referenced
 * table (`ninefold_38_recompute`, only `update of` the columns those rules read, only when one
 * of them changed) rewrites the rows referencing the changed row, one set-based UPDATE per
 * reference (the referencing column is indexed, as every reference is); their own
 * `ninefold_25_computed` trigger recomputes them, money rounded as always.
 *
 * SECURITY DEFINER: the writer of the referenced row need not be allowed to update the
 * dependents (the owner passes row-level security, and the client-only column rules do not apply
 * to it); CHECKs and validation triggers still run, so a dependent the new value makes invalid
 * refuses the whole update with its own catalogue code. The history records no edit (the
 * transaction-local flag the transitions set, saved and restored: a recompute inside a
 * transition leaves the transition's flag as it was). Before `ninefold_40_revalidate`, so rules
 * relating a dependent to its parent see the recomputed value. A chain (`a` from `b.x`, `x` from
 * `c.y`) follows by itself: the rewrite changes `b.x`, which fires `b`'s own trigger; cycles are
 * refused by `check` (computedCycle).
 */
export function emitRecompute(model: AppModel, parent: string): string {
  const hops = computedHops(model).filter((h) => h.target === parent);
  if (hops.length === 0) return '';
  const p = tableOf(model, parent);
  const changed = (fields: readonly string[]) =>
    fields.map((f) => `new.${colSql(model, parent, f)} is distinct from old.${colSql(model, parent, f)}`);
  const blocks = hops.map((h) => {
    const ref = colSql(model, h.entity, h.reference);
    // Every computed column a target of the SET list: `update of` triggers on the dependent (the
    // next link of a chain) fire only for columns the statement names, not for those its BEFORE
    // trigger changes; their `when` still skips values that did not change.
    const sets = computedColumns(model, h.entity).map((c) => {
      const col = colSql(model, h.entity, c.field);
      return `${col} = x.${col}`;
    });
    // Only the fields this hop rewrites are recomputed (`ninefold_25_computed` reads the list);
    // the others keep their stored values.
    const t = tableOf(model, h.entity);
    const cols = [...h.rewritten, ...h.rerounded.map((f) => `~${f}`)].map((f) =>
      f.startsWith('~') ? `~${t.byField.get(f.slice(1))?.column}` : t.byField.get(f)?.column,
    );
    const only = `${t.table}:,${cols.join(',')},`;
    return [
      `if ${changed(h.fields).join(' or ')} then`,
      `  perform set_config(${quoteLiteral(RECOMPUTE_ONLY)}, ${quoteLiteral(only)}, true);`,
      `  update ${tableRef(model, h.entity)} x set ${sets.join(', ')} where x.${ref} = new.id;`,
      `  perform set_config(${quoteLiteral(RECOMPUTE_ONLY)}, v_only, true);`,
      'end if;',
    ].join('\n');
  });
  const flag = quoteLiteral(IN_TRANSITION);
  const body = [
    'declare',
    `  v_flag text := coalesce(current_setting(${flag}, true), '');`,
    `  v_only text := coalesce(current_setting(${quoteLiteral(RECOMPUTE_ONLY)}, true), '');`,
    'begin',
    `  perform set_config(${flag}, 'on', true);`,
    indent(blocks.join('\n')),
    `  perform set_config(${flag}, v_flag, true);`,
    '  return null;',
    'end;',
  ].join('\n');
  const fields = [...new Set(hops.flatMap((h) => h.fields))].sort();
  const fn = qualified('app', p.names.recomputeDependents);
  const dependents = hops.map((h) => `${h.entity}.${h.computed.join('/')} (through ${h.reference})`);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body,
      executeTo: [],
      comment: `Computed fields reading ${parent}, recomputed when it changes: ${dependents.join(', ')}.`,
    }),
    `create or replace trigger ninefold_38_recompute after update of ${fields.map((f) => colSql(model, parent, f)).join(', ')} on ${p.ref} for each row when (${changed(fields).join(' or ')}) execute function ${fn}();`,
  ].join('\n');
}
