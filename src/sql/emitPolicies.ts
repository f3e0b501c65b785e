import type { AppModel, PolicyNode } from '../model/index.ts';
import type { Typed } from '../rules/ast.ts';
import { compileRuleSql, conjuncts, ME_SQL, refTarget, type SqlRuleContext } from './compileRuleSql.ts';
import { fieldSqlType } from './fieldSqlType.ts';
import { policyReads } from './policyReads.ts';
import { qualified, quoteIdent, quoteLiteral, quoteTextArray } from './quote.ts';
import { type Action, grantsFor, holdersOf, tableOf } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

const COMMAND: Record<Action, string> = {
  read: 'select',
  create: 'insert',
  update: 'update',
  delete: 'delete',
};

/** The SQL of "this role may do this" (a policy) on a row qualified by `row` (a policy's table, a record variable). */
export function grantSql(
  model: AppModel,
  p: PolicyNode,
  row: string,
  selfRead?: SqlRuleContext['selfRead'],
  extra: Partial<SqlRuleContext> = {},
  definer = false,
): string {
  const has = definer
    ? heldByCallerSql(model, p.role)
    : `(select app.has_role(${ME_SQL}, ${quoteLiteral(p.role)}))`;
  if (!p.rule) return has;
  const unseen = policyReads(model).unseen;
  const ctx: SqlRuleContext = { ...extra, model, row, unseen, ...(selfRead ? { selfRead } : {}) };
  // A relationship role is nobody's to hold everywhere: the rule carries the relationship.
  if (model.roles.get(p.role)?.through) return `coalesce(${ruleSql(ctx, p.rule)}, false)`;
  return `(${has} and coalesce(${ruleSql(ctx, p.rule)}, false))`;
}

/**
 * `app.has_role(me, role)` written out, for definer code (which reads `app.user_roles` itself):
 * the same truth (the caller's own row, a role or one inheriting it; no caller, false). Called
 * from a SQL function that runs once per row (a per-field read), `has_role` was planned again on
 * every call (its executor state is the caller's, built per call): 0.28 of 0.33 ms a call.
 */
export function heldByCallerSql(model: AppModel, role: string): string {
  return `(exists (select 1 from app.user_roles _ur where _ur.user_id = ${ME_SQL} and _ur.role = any (${quoteTextArray(holdersOf(model, role))})))`;
}

/**
 * The SQL of an update or create grant's `becomes` on the row as it will be (`row`), read as its `when` is
 * (the same context), or undefined when the grant has none.
 */
export function becomesSql(
  model: AppModel,
  p: PolicyNode,
  row: string,
  selfRead?: SqlRuleContext['selfRead'],
): string | undefined {
  if (!p.becomes) return undefined;
  const ctx: SqlRuleContext = {
    model,
    row,
    unseen: policyReads(model).unseen,
    ...(selfRead ? { selfRead } : {}),
  };
  return `coalesce(${ruleSql(ctx, p.becomes)}, false)`;
}

/** The SQL type a self-read helper returns: the aggregate's, or the column's it reads. */
function returnType(model: AppModel, node: Typed): string {
  if (node.kind === 'count') return 'bigint';
  if (node.kind === 'sum') return 'numeric';
  if (node.kind === 'field' && node.path[1] !== undefined)
    return fieldSqlType(model, node.via ?? refTarget(model, node.entity, node.path[0]), node.path[1]);
  if (node.kind === 'me' && node.field !== undefined) {
    const profile = node.profile ?? model.profile;
    if (profile) return fieldSqlType(model, profile, node.field);
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
function selfReadHelpers(
  model: AppModel,
  entity: string,
  row: string,
  kind: 'definer' | 'invoker' = 'definer',
) {
  const t = tableOf(model, entity);
  const functions: string[] = [];
  const helper = (node: Typed) => {
    const base = kind === 'definer' ? 'self_read' : 'policy_read';
    const name = qualified('app', t.names.policyHelper(base, functions.length + 1));
    const body = compileRuleSql(node, { model, row: 'p_row', unseen: policyReads(model).unseen });
    functions.push(
      sqlFunction({
        name,
        args: `p_row ${t.ref}`,
        argTypes: t.ref,
        returns: returnType(model, node),
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
  // Only as the owner (read policies): the values a row's reference must be among.
  const setHelper =
    kind === 'definer'
      ? (select: string, returns: string): string => {
          const name = qualified('app', t.names.policyHelper('self_read', functions.length + 1));
          functions.push(
            sqlFunction({
              name,
              args: '',
              argTypes: '',
              returns: `setof ${returns}`,
              language: 'sql',
              volatility: 'stable',
              securityDefiner: true,
              body: `${select};`,
              executeTo: ['authenticated'],
              comment: `${entity}: the scope rows of a relationship role inside its own read policy, read once per statement without RLS (no policy recursion)`,
            }),
          );
          return `${name}()`;
        }
      : undefined;
  return { functions, helper, ...(setHelper ? { setHelper } : {}) };
}

/**
 * RLS enabled and forced, and one permissive policy per role and action the spec grants.
 * A role's inherited permissions apply through `app.has_role`, which counts inheriting roles.
 */
export function emitPolicies(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const table = t.ref;
  const row = quoteIdent(t.table);
  const out = [
    `alter table ${table} enable row level security;`,
    `alter table ${table} force row level security;`,
  ];
  const self = selfReadHelpers(model, entity, row);
  const selfRead = {
    entities: policyReads(model).cycleOf(entity),
    helper: self.helper,
    ...(self.setHelper ? { setHelper: self.setHelper } : {}),
  };
  // A write policy that reads its own table (`delete: count(item where ...) < 3`), or a table whose
  // read policies read back into it, would re-enter this table's policies: Postgres refuses that at
  // query time ("infinite recursion detected in policy") for every command, not only reads.
  const invoker = selfReadHelpers(model, entity, row, 'invoker');
  const writeRead = { entities: policyReads(model).readersOf(entity), helper: invoker.helper };
  const policies: string[] = [];
  for (const g of grantsFor(model, entity)) {
    const name = quoteIdent(g.name);
    const cond = grantSql(model, g, row, g.action === 'read' ? selfRead : writeRead);
    const clause =
      g.action === 'create'
        ? `with check (${withBecomes(cond, becomesSql(model, g, row, writeRead))})`
        : g.action === 'update'
          ? `using (${cond}) with check (${withBecomes(cond, becomesSql(model, g, row, writeRead))})`
          : `using (${cond})`;
    policies.push(
      `drop policy if exists ${name} on ${table};`,
      `create policy ${name} on ${table} as permissive for ${COMMAND[g.action]} to authenticated ${clause};`,
    );
  }
  return [...out, ...self.functions, ...invoker.functions, ...policies].join('\n');
}

/** An update or create policy's WITH CHECK: its rule on the new row, and its `becomes` when it has one. */
function withBecomes(cond: string, becomes: string | undefined): string {
  return becomes === undefined ? cond : `${cond} and ${becomes}`;
}

/**
 * The caller may read the row held in `row` (a record variable): the disjunction of the read
 * policies, for code that sees every row (security definer: transitions, search, per-field reads,
 * counted rows). What a policy reads of another table is read as RLS would show it to the caller:
 * a hop or a count reaches only rows the caller may read (this check, recursively), except in the
 * entity's own read cycle, which its policies read through definer helpers that see every row.
 */
export function readableSql(model: AppModel, entity: string, row: string): string {
  const reads = grantsFor(model, entity).filter((g) => g.action === 'read');
  if (reads.length === 0) return 'false';
  const cycle = policyReads(model).cycleOf(entity);
  const asCaller = (target: string, a: string, where?: Typed): string | undefined =>
    cycle.has(target) || (where !== undefined && readableByOwnRow(model, target, where))
      ? undefined
      : `coalesce(${readableSql(model, target, a)}, false)`;
  const ctx = {
    hopFilter: asCaller,
    countFilter: asCaller,
    filterSums: true,
    aliasSuffix: `_${row.replace(/\W/g, '')}`,
  };
  return reads.map((g) => grantSql(model, g, row, undefined, ctx, true)).join(' or ');
}

/** `field = me` (either way round) on the row in scope (`scope`), else the field's name. */
function fieldIsMe(t: Typed, scope: 'row' | 'inner'): string | undefined {
  if (t.kind !== 'binary' || t.op !== '=') return undefined;
  for (const [f, m] of [
    [t.left, t.right],
    [t.right, t.left],
  ] as const)
    if (
      f.kind === 'field' &&
      f.scope === scope &&
      f.path.length === 1 &&
      m.kind === 'me' &&
      m.field === undefined
    )
      return f.path[0];
  return undefined;
}

/**
 * Every row a count's `where` admits is readable by the caller, so a readability check on it is
 * redundant: a conjunct `field = me` where some read permission of the counted entity is exactly
 * `field = me` with no role to hold (a relationship role's, as "a person reads their own
 * memberships"). `count(membership where organisation = this.organisation and person = me ...)`
 * reads only the caller's memberships, which they may read: checking them again put three
 * subplans repeating membership's read rules into every per-field read call.
 */
function readableByOwnRow(model: AppModel, entity: string, where: Typed): boolean {
  const own = new Set<string>();
  for (const g of grantsFor(model, entity))
    if (g.action === 'read' && g.rule?.typed && model.roles.get(g.role)?.through) {
      const f = fieldIsMe(g.rule.typed, 'row');
      if (f !== undefined) own.add(f);
    }
  if (own.size === 0) return false;
  return conjuncts(where).some((c) => {
    const f = fieldIsMe(c, 'inner');
    return f !== undefined && own.has(f);
  });
}
