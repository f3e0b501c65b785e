import type { QueryClient } from '@tanstack/react-query';
import type { Backend, ListQuery, Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { cellText } from '../runtime/cellText.ts';
import { toCsv } from '../runtime/toCsv.ts';
import { rowTitle } from './display.tsx';
import { keys } from './hooks.ts';
import { fieldLabel } from './labels.ts';
import { seedReferences } from './referenceLabels.ts';

/** Rows per request while exporting: big enough to be few requests, small enough to show progress. */
export const EXPORT_PAGE = 500;

/**
 * Every row of the list's current filter and search (not only the page shown), paged through the
 * backend, as CSV of what the screen shows: column labels, names of referenced rows and people,
 * state and enum labels; the query carries the screen's whole `where` (applied on the server).
 * `onProgress` hears rows read so far and the total.
 */
export async function exportRows(options: {
  qc: QueryClient;
  backend: Backend;
  model: AppModel;
  entity: string;
  query: ListQuery;
  columns: readonly string[];
  onProgress(done: number, total: number | null): void;
}): Promise<string> {
  const { qc, backend, model, entity, query, columns } = options;
  const out: Row[] = [];
  let total: number | null = null;
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const page = await backend.data.list(entity, {
      ...query,
      offset,
      limit: EXPORT_PAGE,
      count: offset === 0 ? 'exact' : 'none',
    });
    if (offset === 0) total = page.total;
    // Names of what the page references, one request per referenced entity (the signed-in
    // person included: the file says their name, not "You").
    await seedReferences(qc, backend, model, entity, page.rows, undefined, keys.row);
    out.push(...page.rows);
    options.onProgress(Math.min(offset + page.rows.length, total ?? offset + page.rows.length), total);
    if (page.rows.length < EXPORT_PAGE) break;
  }
  const label = (target: string, id: string) => {
    const r = qc.getQueryData<Row>(keys.row(target, id));
    return r ? rowTitle(model, target, r) : undefined;
  };
  return toCsv(
    columns.map((c) => fieldLabel(model, entity, c)),
    out.map((r) => columns.map((c) => cellText(model, entity, c, r, label))),
  );
}
