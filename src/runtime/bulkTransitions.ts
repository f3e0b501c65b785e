import type { AppModel } from '../model/appModel.ts';
import { availableTransitions } from './availableTransitions.ts';
import type { RuleUser } from './ruleVerdict.ts';

export interface BulkTransition {
  name: string;
  label: string;
  /** Ids of the chosen rows it applies to (the others are skipped, not refused). */
  ids: string[];
  confirm: boolean;
}

/**
 * The transitions that can run on many rows at once: those the user may run on at least one of
 * `rows` and that ask for no input (a reason or a reference is typed per row, not in bulk).
 * Each still goes to the server row by row, which judges it as for one.
 *
 * @example
 * bulkTransitions(resolve(helpdesk), agent, 'ticket', [newTicket, openTicket]); // [{ name: 'start', ids: [...] }, ...]
 */
export function bulkTransitions(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  rows: readonly Readonly<Record<string, unknown>>[],
): BulkTransition[] {
  const out = new Map<string, BulkTransition>();
  for (const row of rows)
    for (const t of availableTransitions(model, user, entity, row)) {
      if (!t.allowed || t.input.length > 0) continue;
      const b = out.get(t.name) ?? { name: t.name, label: t.label, ids: [], confirm: t.confirm };
      b.ids.push(String(row.id));
      out.set(t.name, b);
    }
  return [...out.values()];
}

/**
 * Whether some transition could run in bulk on at least one of `rows` (`bulkTransitions(…)` not
 * empty), stopping at the first: the list screen asks this for every page it renders, before
 * its first row is painted, and judging every guard and row rule of every row of the page was
 * the longest piece of the app's own code on that path (docs/performance.md).
 *
 * @example
 * hasBulkTransition(resolve(helpdesk), agent, 'ticket', [newTicket]); // true
 */
export function hasBulkTransition(
  model: AppModel,
  user: RuleUser | null,
  entity: string,
  rows: readonly Readonly<Record<string, unknown>>[],
): boolean {
  if (!model.machines.has(entity) || !user) return false;
  return rows.some((row) =>
    availableTransitions(model, user, entity, row).some((t) => t.allowed && t.input.length === 0),
  );
}
