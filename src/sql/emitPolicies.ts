import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { type Action, grantsFor, tableRef } from './specModel.ts';
import { ruleSql } from './typedRule.ts';

const COMMAND: Record<Action, string> = {
  read: 'select',
  create: 'insert',
  update: 'update',
  delete: 'delete',
};

/** The SQL of "this role may do this" on a row qualified by `row` (a policy's table, a record variable). */
export function grantSql(
  spec: AppSpec,
  entity: string,
  role: string,
  when: true | string,
  row: string,
  where: string,
): string {
  const has = `(select app.has_role(${ME_SQL}, ${quoteLiteral(role)}))`;
  if (when === true) return has;
  return `(${has} and coalesce(${ruleSql({ spec, row }, when, entity, where)}, false))`;
}

/**
 * RLS enabled and forced, and one permissive policy per role and action the spec grants.
 * A role's inherited permissions apply through `app.has_role`, which counts inheriting roles.
 */
export function emitPolicies(spec: AppSpec, entity: string): string {
  const table = tableRef(entity);
  const row = quoteIdent(tableName(entity));
  const out = [
    `alter table ${table} enable row level security;`,
    `alter table ${table} force row level security;`,
  ];
  for (const g of grantsFor(spec, entity)) {
    const name = quoteIdent(`${tableName(entity)}__${g.role}__${g.action}`);
    const cond = grantSql(
      spec,
      entity,
      g.role,
      g.when,
      row,
      `roles.permissions.${g.role}.${entity}.${g.action}`,
    );
    const clause =
      g.action === 'create'
        ? `with check (${cond})`
        : g.action === 'update'
          ? `using (${cond}) with check (${cond})`
          : `using (${cond})`;
    out.push(
      `drop policy if exists ${name} on ${table};`,
      `create policy ${name} on ${table} as permissive for ${COMMAND[g.action]} to authenticated ${clause};`,
    );
  }
  return out.join('\n');
}

/** The caller may read the row held in `row` (a record variable): the disjunction of the read policies. */
export function readableSql(spec: AppSpec, entity: string, row: string): string {
  const reads = grantsFor(spec, entity).filter((g) => g.action === 'read');
  if (reads.length === 0) return 'false';
  return reads
    .map((g) => grantSql(spec, entity, g.role, g.when, row, `roles.permissions.${g.role}.${entity}.read`))
    .join(' or ');
}
