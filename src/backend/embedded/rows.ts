import { HIDDEN_COLUMN } from '../../model/index.ts';
import { quoteIdent } from '../../sql/quote.ts';
import { HIDDEN_FIELDS, type Row } from '../types.ts';
import type { EntityInfo } from './entityInfo.ts';

/** Parsers for the query options: timestamps as ISO strings, dates as `YYYY-MM-DD`, numbers as numbers. */
export const PARSERS = {
  // timestamptz / timestamp: ISO 8601 in UTC, as the hosted backend returns them
  1184: (v: string) => new Date(v.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).toISOString(),
  1114: (v: string) => new Date(`${v.replace(' ', 'T')}Z`).toISOString(),
  1082: (v: string) => v,
  1700: (v: string) => Number(v),
  20: (v: string) => Number(v),
};

/** A database row (snake_case columns) → an API row (spec field names). */
export function toRow(info: EntityInfo, db: Record<string, unknown>): Row {
  const out: Record<string, unknown> = {};
  for (const c of info.columns) if (c.column in db) out[c.field] = db[c.column] ?? null;
  const hidden = db[HIDDEN_COLUMN];
  if (Array.isArray(hidden) && hidden.length > 0) out[HIDDEN_FIELDS] = hidden;
  return out as Row;
}

/**
 * The select list of a read through the table's masking view: its columns, and which
 * read-restricted fields the caller may not read on each row (src/sql/emitFieldReads.ts).
 */
export function readList(info: EntityInfo, alias = 't'): string {
  const list = selectList(info, alias);
  return info.readRestricted.length > 0 ? `${list}, ${alias}.${HIDDEN_COLUMN}` : list;
}

/** The select list for a table's readable columns. */
export function selectList(info: EntityInfo, alias = 't'): string {
  return info.columns.map((c) => `${alias}.${quoteIdent(c.column)}`).join(', ');
}
