import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { readsOtherRows } from './emitGroupLocks.ts';
import { grantSql } from './emitPolicies.ts';
import { CLIENT_ROLES_SQL } from './emitRowTriggers.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { type Action, grantsFor, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedRule } from './typedRule.ts';

const OPS: Record<Exclude<Action, 'read'>, { op: string; row: 'new' | 'old' }> = {
  create: { op: 'INSERT', row: 'new' },
  update: { op: 'UPDATE', row: 'new' },
  delete: { op: 'DELETE', row: 'old' },
};

/**
 * Write permissions that read other rows (`line: update when claim.status in (draft, returned)`)
 * are checked again after the write, under the group locks (emitGroupLocks.ts), with a fresh
 * snapshot. Row-level security evaluates them on the statement's snapshot, taken before the
 * writer waited for the lock: a line edited while its claim was being submitted would pass RLS
 * with the claim still a draft, and the claim be paid for a changed line. Invoker rights: the
 * check sees what the client sees, exactly like the policy. Refused writes raise FORBIDDEN.
 */
export function emitPermissionRecheck(spec: AppSpec, entity: string): string {
  const blocks: string[] = [];
  for (const action of ['create', 'update', 'delete'] as const) {
    const grants = grantsFor(spec, entity).filter((g) => g.action === action);
    const racy = grants.some(
      (g) =>
        g.when !== true &&
        readsOtherRows(typedRule(spec, g.when, entity, `roles.permissions.${g.role}.${entity}.${action}`)),
    );
    if (!racy) continue;
    const { op, row } = OPS[action];
    const allowed = grants
      .map((g) =>
        grantSql(spec, entity, g.role, g.when, row, `roles.permissions.${g.role}.${entity}.${action}`),
      )
      .join(' or ');
    blocks.push(
      [
        `if tg_op = '${op}' and not (${allowed}) then`,
        `  ${raiseSql('FORBIDDEN', { entity: quoteLiteral(entity), action: quoteLiteral(action) })}`,
        'end if;',
      ].join('\n'),
    );
  }
  if (blocks.length === 0) return '';
  const fn = `app.${quoteIdent(`${tableName(entity)}__recheck_permission`)}`;
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      // Depth 1: the client's own statement. Rows a cascade removes (a claim's lines) were decided by
      // the parent's delete rule; their own rule may read the parent, which is gone by then.
      body: `begin\n  if ${CLIENT_ROLES_SQL} and pg_catalog.pg_trigger_depth() = 1 then\n${indent(blocks.join('\n'), 4)}\n  end if;\n  return null;\nend;`,
      executeTo: [],
      comment: `Write permissions of ${entity} that read other rows, checked again under the group locks.`,
    }),
    sqlTrigger('ninefold_35_recheck_permission', 'after insert or update or delete', tableRef(entity), fn),
  ].join('\n');
}
