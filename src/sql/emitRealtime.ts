import type { AppModel } from '../model/index.ts';
import { doBlock, quoteLiteral } from './quote.ts';

/** The publication Supabase Realtime streams `postgres_changes` from. */
export const REALTIME_PUBLICATION = 'supabase_realtime';

/**
 * Adds every `live: true` entity's table to the `supabase_realtime` publication (supabase target).
 * Guarded: a table already in it is skipped, and nothing is created when the publication is missing
 * (hosted projects have it; the test stand-in creates it). Realtime checks each subscriber's read
 * policy before it sends a change, so the publication widens nothing.
 *
 * @example
 * emitRealtime(helpdesk); // do $do$ begin if exists (… 'supabase_realtime') … add table public.ticket …
 */
export function emitRealtime(model: AppModel): string {
  const live = [...model.tables.values()].filter((t) => t.live);
  if (live.length === 0) return '';
  const pub = quoteLiteral(REALTIME_PUBLICATION);
  return doBlock(
    [
      ' begin',
      `  if exists (select 1 from pg_catalog.pg_publication where pubname = ${pub}) then`,
      ...live.flatMap((t) => [
        `    if not exists (select 1 from pg_catalog.pg_publication_tables where pubname = ${pub} and schemaname = 'public' and tablename = ${quoteLiteral(t.table)}) then`,
        `      alter publication ${REALTIME_PUBLICATION} add table ${t.ref};`,
        '    end if;',
      ]),
      '  end if;',
      'end ',
    ].join('\n'),
  );
}
