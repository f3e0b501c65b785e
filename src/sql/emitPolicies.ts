import { tableName } from '../naming.ts';
import type { Typed } from '../rules/ast.ts';
import type { AppSpec } from '../spec/types.ts';
import {
  compileRuleSql,
  ME_SQL,
  profileEntityName,
  refTarget,
  type SqlRuleContext,
} from './compileRuleSql.ts';
import { fieldSqlType } from './fieldSqlType.ts';
import { policyReads } from './policyReads.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { type Action, grantsFor, tableRef } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
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
  selfRead?: SqlRuleContext['selfRead'],
): string {
  const has = `(select app.has_role(${ME_SQL}, ${quoteLiteral(role)}))`;
  if (when === true) return has;
  const unseen = policyReads(spec).unseen;
  const ctx: SqlRuleContext = selfRead ? { spec, row, selfRead, unseen } : { spec, row, unseen };
  return `(${has} and coalesce(${ruleSql(ctx, when, entity, where)}, false))`;
}

/** The SQL type a self-read helper returns: the aggregate's, or the column's it reads. */
function returnType(spec: AppSpec, node: Typed): string {
  if (node.kind === 'count') return 'bigint';
  if (node.kind === 'sum') return 'numeric';
  if (node.kind === 'field' && node.path[1] !== undefined)
    return fieldSqlType(spec, node.via ?? refTarget(spec, node.entity, node.path[0]), node.path[1]);
  if (node.kind === 'me' && node.field !== undefined) {
    const profile = node.profile ?? profileEntityName(spec);
    if (profile) return fieldSqlType(spec, profile, node.field);
  }
  throw new Error(`emitPolicies: no self-read helper for a ${node.kind} node`);
}

/**
 * Collects the security-definer helpers a table's read policies need: one function per read that
 * would re-enter the policy (a `count`/`sum` over the table itself or over a table whose read
 * policies read back into it, a hop to such a table), taking the policy's row. It reads as the
 * owner, so without RLS and without re-entering the policy, and computes only that read (the rest
 * of the rule, other tables included, stays under the caller's RLS). Tables no role may read stay
 * empty inside it too, as everywhere in a policy.
 */
function selfReadHelpers(entity: string, row: string, kind: 'definer' | 'invoker' = 'definer') {
  const table = tableName(entity);
  const functions: string[] = [];
  const helper = (spec: AppSpec) => (node: Typed) => {
    const base = kind === 'definer' ? 'self_read' : 'policy_read';
    const name = `app.${quoteIdent(`${table}__${base}_${functions.length + 1}`)}`;
    const body = compileRuleSql(node, { spec, row: 'p_row', unseen: policyReads(spec).unseen });
    functions.push(
      sqlFunction({
        name,
        args: `p_row ${tableRef(entity)}`,
        argTypes: tableRef(entity),
        returns: returnType(spec, node),
        language: 'sql',
        volatility: 'stable',
        securityDefiner: kind === 'definer',
        body: `select ${body};`,
        executeTo: ['authenticated'],
        comment:
          kind === 'definer'
            ? `${entity}: a read inside its own read policy that would re-enter it, without RLS (no policy recursion)`
            : `${entity}: a read inside a write policy that would re-enter the table's policies; a query of its own under the caller's RLS (no policy recursion)`,
      }),
    );
    return `${name}(${row})`;
  };
  return { functions, helper };
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
  const self = selfReadHelpers(entity, row);
  const selfRead = { entities: policyReads(spec).cycleOf(entity), helper: self.helper(spec) };
  // A write policy that reads its own table (`delete: count(item where ...) < 3`), or a table whose
  // read policies read back into it, would re-enter this table's policies: Postgres refuses that at
  // query time ("infinite recursion detected in policy") for every command, not only reads.
  const invoker = selfReadHelpers(entity, row, 'invoker');
  const writeRead = { entities: policyReads(spec).readersOf(entity), helper: invoker.helper(spec) };
  const policies: string[] = [];
  for (const g of grantsFor(spec, entity)) {
    const name = quoteIdent(`${tableName(entity)}__${g.role}__${g.action}`);
    const cond = grantSql(
      spec,
      entity,
      g.role,
      g.when,
      row,
      `roles.permissions.${g.role}.${entity}.${g.action}`,
      g.action === 'read' ? selfRead : writeRead,
    );
    const clause =
      g.action === 'create'
        ? `with check (${cond})`
        : g.action === 'update'
          ? `using (${cond}) with check (${cond})`
          : `using (${cond})`;
    policies.push(
      `drop policy if exists ${name} on ${table};`,
      `create policy ${name} on ${table} as permissive for ${COMMAND[g.action]} to authenticated ${clause};`,
    );
  }
  return [...out, ...self.functions, ...invoker.functions, ...policies].join('\n');
}

/** The caller may read the row held in `row` (a record variable): the disjunction of the read policies. */
export function readableSql(spec: AppSpec, entity: string, row: string): string {
  const reads = grantsFor(spec, entity).filter((g) => g.action === 'read');
  if (reads.length === 0) return 'false';
  return reads
    .map((g) => grantSql(spec, entity, g.role, g.when, row, `roles.permissions.${g.role}.${entity}.read`))
    .join(' or ');
}
