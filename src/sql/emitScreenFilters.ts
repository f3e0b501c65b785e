import type { CheckedRule } from '../model/checkedRule.ts';
import type { AppModel } from '../model/index.ts';
import { screenWhereFunction } from '../model/sqlNames.ts';
import { qualified } from './quote.ts';
import { tableRef } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** The screens whose `where` rule the server applies: those with both a rule and an entity. */
export function filteredScreens(model: AppModel): { screen: string; entity: string; where: CheckedRule }[] {
  return [...model.screens.values()].flatMap((s) =>
    s.whereRule !== undefined && s.entity !== undefined && model.tables.has(s.entity)
      ? [{ screen: s.name, entity: s.entity, where: s.whereRule }]
      : [],
  );
}

/**
 * One function per filtered screen: `public.<table>__where_<screen>(p_row) returns boolean`, the
 * screen's `where` rule on one row (unknown, as a rule that does not hold, lists no row). It runs as
 * the caller (security invoker): a `count(vote where ...)` inside sees only the votes the user may
 * read, and the list it filters is read under the table's own row-level security, so a screen
 * never shows a row its user cannot read. The embedded backend calls it in the list query; on
 * Supabase it is a PostgREST computed field (`?<name>=is.true`), which is why it lives in `public`
 * and takes the table's row type.
 */
export function emitScreenFilters(model: AppModel): string {
  return filteredScreens(model)
    .map(({ screen, entity, where }) => {
      // Over the rows clients read: the masking view where some field is read-restricted.
      const table = model.tables.get(entity)?.readRef ?? tableRef(model, entity);
      const rule = ruleSql({ model, row: 'p_row' }, where);
      return sqlFunction({
        name: qualified('public', screenWhereFunction(entity, screen)),
        args: `p_row ${table}`,
        argTypes: table,
        returns: 'boolean',
        language: 'sql',
        volatility: 'stable',
        securityDefiner: false,
        // Inlined into the list query (no SET clause, no coalesce: in a WHERE and in PostgREST's
        // `is.true` unknown is already false), so the planner uses indexes on the rule's columns:
        // the late-first-response list at 300,000 tickets, 1,090 ms → 108 ms a page.
        body: `select ${rule}`,
        inlinable: true,
        executeTo: ['authenticated'],
        comment: `Screen ${screen}: the rows of ${entity} it lists (${where.text}).`,
      });
    })
    .join('\n\n');
}
