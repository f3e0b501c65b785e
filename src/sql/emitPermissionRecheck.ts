import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { hopsOf, readsOtherRows } from './emitGroupLocks.ts';
import { grantSql } from './emitPolicies.ts';
import { CLIENT_ROLES_SQL } from './emitRowTriggers.ts';
import { policyReads } from './policyReads.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { type Action, grantsFor, referencedEntity, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedRule } from './typedRule.ts';

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
    // A row removed by a cascade (a claim's lines when the claim is deleted) was decided by the
    // parent's delete rule; its own rule reads the parent, which is gone by then: not re-checked.
    const parentsLeft =
      action === 'delete'
        ? [
            ...new Set(
              grants.flatMap((g) =>
                g.when === true
                  ? []
                  : [
                      ...hopsOf(
                        typedRule(spec, g.when, entity, `roles.permissions.${g.role}.${entity}.delete`),
                      ),
                    ],
              ),
            ),
          ]
            .sort()
            .flatMap((hop) => {
              const f = spec.entities[entity]?.fields[hop];
              const parent = f ? referencedEntity(spec, f) : undefined;
              // A parent no role may read has no SELECT grant, so a client cannot query it; nor can a
              // client delete it (and cascade here): the rule is always checked.
              return parent && !policyReads(spec).unseen.has(parent)
                ? [
                    `exists (select 1 from ${tableRef(parent)} p where p.id = old.${quoteIdent(columnFor(spec, entity, hop))})`,
                  ]
                : [];
            })
        : [];
    const allowed = grants
      .map((g) =>
        grantSql(spec, entity, g.role, g.when, row, `roles.permissions.${g.role}.${entity}.${action}`),
      )
      .join(' or ');
    blocks.push(
      [
        `if tg_op = '${op}'${parentsLeft.map((p) => ` and ${p}`).join('')} and not (${allowed}) then`,
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
      body: `begin\n  if ${CLIENT_ROLES_SQL} then\n${indent(blocks.join('\n'), 4)}\n  end if;\n  if tg_op = 'DELETE' then\n    return old;\n  end if;\n  return new;\nend;`,
      executeTo: [],
      comment: `Write permissions of ${entity} that read other rows, checked again under the group locks.`,
    }),
    // BEFORE the write, after the group locks (ninefold_05) and the insert bookkeeping (ninefold_10):
    // the table is as the policy saw it (a row being created is not in it yet, one being deleted still
    // is), so a rule counting its own table gives the policy's answer on fresh data.
    sqlTrigger('ninefold_35_recheck_permission', 'before insert or update or delete', tableRef(entity), fn),
  ].join('\n');
}
