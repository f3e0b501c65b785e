import type { AppModel, PolicyNode } from '../model/index.ts';
import { hopsOf, readsOtherRows } from './emitGroupLocks.ts';
import { grantSql } from './emitPolicies.ts';
import { CLIENT_ROLES_SQL } from './emitRowTriggers.ts';
import { policyReads } from './policyReads.ts';
import { qualified, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { type Action, colSql, grantsFor, referenceOf, tableOf, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

const OPS: Record<Exclude<Action, 'read'>, { op: string; row: 'new' | 'old' }> = {
  create: { op: 'INSERT', row: 'new' },
  update: { op: 'UPDATE', row: 'new' },
  delete: { op: 'DELETE', row: 'old' },
};

/**
 * Write permissions that read other rows (`line: update when claim.status in (draft, returned)`)
 * are checked again just before the write, under the group locks (emitGroupLocks.ts), with a
 * fresh snapshot. Row-level security evaluates them on the statement's snapshot, taken before the
 * writer waited for the lock: a line edited while its claim was being submitted would pass RLS
 * with the claim still a draft, and the claim be paid for a changed line. Invoker rights: the
 * check sees what the client sees, exactly like the policy. Refused writes raise FORBIDDEN.
 */
export function emitPermissionRecheck(model: AppModel, entity: string): string {
  const blocks: string[] = [];
  for (const action of ['create', 'update', 'delete'] as const) {
    const grants = grantsFor(model, entity).filter((g) => g.action === action);
    const racy = grants.some((g) => g.rule && readsOtherRows(typedOf(g.rule)));
    if (!racy) continue;
    const { op, row } = OPS[action];
    const parentsLeft = action === 'delete' ? parentsStillThere(model, entity, grants) : [];
    const allowed = grants.map((g) => grantSql(model, g, row)).join(' or ');
    blocks.push(
      [
        `if tg_op = '${op}'${parentsLeft.map((p) => ` and ${p}`).join('')} and not (${allowed}) then`,
        `  ${raiseSql('FORBIDDEN', { entity: quoteLiteral(entity), action: quoteLiteral(action) })}`,
        'end if;',
      ].join('\n'),
    );
  }
  if (blocks.length === 0) return '';
  const fn = qualified('app', tableOf(model, entity).names.recheckPermission);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: `begin\n  if ${CLIENT_ROLES_SQL} then\n${indent(blocks.join('\n'), 4)}\n  end if;\n  if tg_op = 'DELETE' then\n    return old;\n  end if;\n  return new;\nend;`,
      executeTo: [],
      comment: `Write permissions of ${entity} that read other rows, checked again under the group locks.`,
    }),
    // BEFORE the write, after the group locks (ninefold_05) and the insert bookkeeping (ninefold_10):
    // the table is as the policy saw it (a row being created is not in it yet, one being deleted still
    // is), so a rule counting its own table gives the policy's answer on fresh data.
    sqlTrigger(
      'ninefold_35_recheck_permission',
      'before insert or update or delete',
      tableRef(model, entity),
      fn,
    ),
  ].join('\n');
}

/**
 * A row removed by a cascade (a claim's lines when the claim is deleted) was decided by the
 * parent's delete rule; its own rule reads the parent, which is gone by then: not re-checked. The
 * conditions "the parent is still there", one per parent the delete rules read.
 */
function parentsStillThere(model: AppModel, entity: string, grants: readonly PolicyNode[]): string[] {
  const hops = new Set(grants.flatMap((g) => (g.rule ? [...hopsOf(typedOf(g.rule))] : [])));
  return [...hops].sort().flatMap((hop) => {
    const parent = referenceOf(model, entity, hop);
    // A parent no role may read has no SELECT grant, so a client cannot query it; nor can a
    // client delete it (and cascade here): the rule is always checked.
    return parent && !policyReads(model).unseen.has(parent)
      ? [`exists (select 1 from ${tableRef(model, parent)} p where p.id = old.${colSql(model, entity, hop)})`]
      : [];
  });
}
