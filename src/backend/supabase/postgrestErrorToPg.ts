/**
 * PostgREST forwards a Postgres error as `{code, message, details, hint}` only: the constraint,
 * table and column that `pg`/PGlite give as separate fields are inside the English message. This
 * recovers them so the shared `mapDatabaseError` sees the same shape from both backends.
 */

/** A PostgREST error body (`PostgrestError` in supabase-js). */
export interface PostgrestErrorBody {
  code?: string | null;
  message?: string | null;
  details?: string | null;
  hint?: string | null;
}

/** The pg error fields `mapDatabaseError` reads. */
export interface PgErrorShape {
  code: string | undefined;
  message: string | undefined;
  detail: string | undefined;
  constraint: string | undefined;
  table: string | undefined;
  column: string | undefined;
}

// Postgres' English message templates (lc_messages is 'en' on Supabase). Identifiers are quoted.
const CONSTRAINT = /constraint "([^"]+)"/;
const RELATION = /(?:relation|table) "(?:[^"]+\.)?([^"]+)"/;
const COLUMN = /column "([^"]+)"/;
// "insert or update on table "a" violates foreign key constraint "f" ... on table "b"": the first is ours.
const FIRST_TABLE = /on table "([^"]+)"/;

function nonEmpty(v: string | null | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * @example
 * postgrestErrorToPg({ code: '23514', message: 'new row for relation "ticket" violates check constraint "ticket_title__title_too_long"' })
 * // { code: '23514', constraint: 'ticket_title__title_too_long', table: 'ticket', ... }
 */
export function postgrestErrorToPg(body: PostgrestErrorBody): PgErrorShape {
  const message = nonEmpty(body.message);
  const code = nonEmpty(body.code);
  // P0001 carries the catalogue code as its message: nothing to parse.
  const parse = code?.startsWith('23') === true;
  const m = parse ? (message ?? '') : '';
  return {
    code,
    message,
    detail: nonEmpty(body.details),
    constraint: m.match(CONSTRAINT)?.[1],
    table: m.match(FIRST_TABLE)?.[1] ?? m.match(RELATION)?.[1],
    column: m.match(COLUMN)?.[1],
  };
}
