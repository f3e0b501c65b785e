import { tableName } from '../naming.ts';
import { qualified } from './quote.ts';

/** The history table of an entity: `public.<table>_history`. */
export function historyTable(entity: string): string {
  return qualified('public', `${tableName(entity)}_history`);
}
