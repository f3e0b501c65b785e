import { screenWhereFunctionName, tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { qualified } from './quote.ts';
import { sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** The screens whose `where` rule the server applies: those with both a rule and an entity. */
export function filteredScreens(spec: AppSpec): { screen: string; entity: string; where: string }[] {
  return Object.entries(spec.screens).flatMap(([screen, s]) =>
    s.where !== undefined && s.entity !== undefined && Object.hasOwn(spec.entities, s.entity)
      ? [{ screen, entity: s.entity, where: s.where }]
      : [],
  );
}

/**
 * One function per filtered screen: `public.<table>__where_<screen>(p_row) returns boolean`, the
 * screen's `where` rule on one row (unknown is false, as a rule that does not hold). It runs as
 * the caller (security invoker): a `count(vote where ...)` inside sees only the votes the user may
 * read, and the list it filters is read under the table's own row-level security, so a screen
 * never shows a row its user cannot read. The embedded backend calls it in the list query; on
 * Supabase it is a PostgREST computed field (`?<name>=is.true`), which is why it lives in `public`
 * and takes the table's row type.
 */
export function emitScreenFilters(spec: AppSpec): string {
  return filteredScreens(spec)
    .map(({ screen, entity, where }) => {
      const table = qualified('public', tableName(entity));
      const rule = ruleSql({ spec, row: 'p_row' }, where, entity, `screens.${screen}.where`);
      return sqlFunction({
        name: qualified('public', screenWhereFunctionName(entity, screen)),
        args: `p_row ${table}`,
        argTypes: table,
        returns: 'boolean',
        language: 'sql',
        volatility: 'stable',
        securityDefiner: false,
        body: `select coalesce(${rule}, false)`,
        executeTo: ['authenticated'],
        comment: `Screen ${screen}: the rows of ${entity} it lists (${where}).`,
      });
    })
    .join('\n\n');
}
