import type { TableNode } from '../model/index.ts';
import { qualified } from './quote.ts';

/**
 * The history table of an entity: `public.<table>_history` (its name is the model's). In a file
 * of its own so that emitAuditTriggers.ts and emitHistory.ts can both use it without a cycle.
 */
export function historyTable(t: TableNode): string {
  return qualified('public', t.names.history.table);
}
