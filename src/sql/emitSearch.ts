import type { AppModel } from '../model/index.ts';
import { tableSqlNames } from '../model/sqlNames.ts';
import { readableSql } from './emitPolicies.ts';
import { dollarQuote, qualified, quoteIdent, quoteLiteral, sqlComment } from './quote.ts';
import { tableOf } from './specModel.ts';

/** Loads pg_trgm into its own `extensions` schema, as on hosted Supabase (PGlite: `pgliteExtensions`). */
export const TRIGRAM_EXTENSION_SQL =
  'create schema if not exists extensions;\ncreate extension if not exists pg_trgm with schema extensions;';

/** `app.<table>__search`: the ids of the rows the caller may read whose searchable text matches. */
export function searchFunctionRef(entity: string): string {
  return qualified('app', tableSqlNames(entity).search);
}

/**
 * Free-text search through trigram indexes. A list search is `col ilike '%text%'` over the
 * searchable columns (listQuery.ts); without an index it reads every row (bench:ui, 100,000
 * tickets: 400-900 ms). A GIN `gin_trgm_ops` index per column answers the same `ilike` (same
 * rows), but not under row-level security: `ilike` is not leakproof, so Postgres evaluates it only
 * after the policies and never as an index condition (src/sql/searchIndex.test.ts shows the seq
 * scan). The search therefore runs in a security-definer function that applies the read policies
 * itself (`readableSql`, as the transition functions do), so the planner may use the indexes; it
 * returns only ids the caller could select anyway (every readable row's columns are readable:
 * select is granted per table), and the caller's query still goes through RLS. At most `p_limit`
 * ids: a common word (most rows match) is faster as the plain `ilike` along the sort index, which
 * stops after one page, than as thousands of ids (embedded/data.ts chooses).
 */
export function emitSearch(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const columns = t.searchable;
  if (columns.length === 0) return '';
  const table = t.ref;
  const fn = qualified('app', t.names.search);
  const indexes = columns.map(
    (c) =>
      `create index if not exists ${quoteIdent(t.names.trigramIndex(c))} on ${table} using gin (${quoteIdent(c)} extensions.gin_trgm_ops);`,
  );
  const match = columns.map((c) => `t.${quoteIdent(c)} ilike $1`).join(' or ');
  const query = `select t.id from ${table} t where (${match}) and coalesce(${readableSql(model, entity, 't')}, false) limit $2`;
  return [
    ...indexes,
    sqlComment(
      `Search for ${entity}: matching ids the caller may read (a security-definer function, so the trigram indexes apply).`,
    ),
    `create or replace function ${fn}(p_pattern text, p_limit integer)`,
    'returns setof uuid',
    'language plpgsql stable security definer',
    "set search_path = ''",
    // The planner prices `ilike` far below its cost (~11 µs a row over five columns in PGlite) and
    // scanned even for a pattern matching 57 rows of 30,000 (335 ms). Priced 20x, it takes the
    // indexes for a rare pattern and still scans for a common one, where the limit ends the scan
    // after 1,001 rows (explain analyze at 30,000 rows, both cases).
    'set cpu_operator_cost = 0.05',
    // Dynamic: planned for the pattern at hand. A SQL function's plan treats the pattern as an
    // unknown parameter, cannot tell it suits a trigram index, and scans (3x slower than a plain
    // ilike at 100,000 rows).
    `as ${dollarQuote(`\nbegin\n  return query execute ${quoteLiteral(query)} using p_pattern, p_limit;\nend\n`, 'fn')};`,
    // `revoke execute`, as every generated function: the migration planner finds functions to drop by it.
    `revoke execute on function ${fn}(text, integer) from public;`,
    `grant execute on function ${fn}(text, integer) to authenticated;`,
  ].join('\n');
}
