import type { AppModel } from '../model/index.ts';
import { auditedChildren } from './emitAuditTriggers.ts';
import { historyTable } from './historyTable.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { tableOf, tableRef } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

// In a file of its own so that emitAuditTriggers.ts can use it without an import cycle.
export { historyTable };

/**
 * Append-only history of an entity's transitions, edits of audited fields and rows added under an
 * audited reference. Only the transition functions and the audit triggers write it; it is
 * readable by whoever can read the row (the policy reads the row through the row's own policies);
 * a trigger refuses UPDATE and DELETE to everyone, the owner included. No foreign key: history
 * outlives its row, and a cascade would have to delete it. Instead the history is bound to one
 * *incarnation* of its row: the policy also asks that the row was created (server clock, set by
 * the insert trigger) no later than the history entry, so a row re-inserted under a recycled id
 * never reads the history of the row that had the id before (docs/security.md, "History").
 */
export function emitHistory(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  if (t.historyTable === undefined) return '';
  const names = t.names.history;
  const h = historyTable(t);
  const ht = names.table;
  const fn = qualified('app', names.appendOnly);
  return [
    `create table if not exists ${h} (`,
    '  id uuid primary key default gen_random_uuid(),',
    '  row_id uuid not null,',
    // 'transition' (a state change), 'edit' (audited fields) or 'added' (a row under an audited reference).
    "  kind text not null default 'transition',",
    '  transition text not null,',
    '  from_state text not null,',
    '  to_state text not null,',
    '  actor uuid,',
    '  at timestamptz not null default now(),',
    "  input jsonb not null default '{}'::jsonb,",
    // An edit's fields as they were before it (beside `input`, their new values); '{}' otherwise.
    "  previous jsonb not null default '{}'::jsonb",
    ');',
    // A history made before entries had kinds holds transitions only.
    `alter table ${h} add column if not exists kind text not null default 'transition';`,
    // A history made before edits kept their old values: those edits show the new value alone.
    `alter table ${h} add column if not exists previous jsonb not null default '{}'::jsonb;`,
    `create index if not exists ${quoteIdent(names.rowIdIndex)} on ${h} (row_id, at);`,
    `alter table ${h} enable row level security;`,
    `alter table ${h} force row level security;`,
    `drop policy if exists ${quoteIdent(names.readPolicy)} on ${h};`,
    `create policy ${quoteIdent(names.readPolicy)} on ${h} as permissive for select to authenticated using (exists (select 1 from ${t.ref} x where x.id = ${quoteIdent(ht)}.row_id and x.created_at <= ${quoteIdent(ht)}.at)${addedReadable(model, entity, quoteIdent(ht))});`,
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: `begin\n  ${raiseSql('APPEND_ONLY', { table: quoteLiteral(ht) })}\nend;`,
      executeTo: [],
      comment: `History of ${entity} is append-only.`,
    }),
    sqlTrigger('ninefold_append_only', 'before update or delete', h, fn),
  ].join('\n');
}

/**
 * An entry for a row added under this one is readable only with that row: a customer reading the
 * ticket's history must not learn of an internal note they cannot read.
 */
function addedReadable(model: AppModel, entity: string, h: string): string {
  const children = auditedChildren(model, entity);
  if (children.length === 0) return '';
  const cases = children
    .map(
      ([child]) =>
        ` when ${quoteLiteral(child)} then exists (select 1 from ${tableRef(model, child)} c where c.id = (${h}.input ->> 'id')::uuid)`,
    )
    .join('');
  return ` and (${h}.kind <> 'added' or case ${h}.transition${cases} else false end)`;
}
