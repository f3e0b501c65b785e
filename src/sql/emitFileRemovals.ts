import { bucketName } from '../backend/supabase/storagePaths.ts';
import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { tableRef } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

/**
 * Hosted files outlive their rows otherwise (issue 11, finding 9): a row deleted by a cascade (a
 * ticket's attachments) or straight through the REST API leaves its Storage object behind. Every
 * delete of a files row whose object still exists queues the object in `app.file_removals`, in the
 * deleting transaction; a trusted deliverer (docs/hosting.md, "Stored files of deleted rows") takes
 * the queue with `public.ninefold_file_removals()` and removes the objects through the Storage API,
 * which is the only supported way to delete them. Clients never see the queue.
 */
export function emitFileRemovals(spec: AppSpec): string {
  const files = Object.entries(spec.entities)
    .filter(([, e]) => e.files)
    .map(([n]) => n);
  if (files.length === 0) return '';
  const out = [
    [
      'create table if not exists app.file_removals (',
      '  bucket text not null,',
      '  path text not null,',
      '  queued_at timestamptz not null default now(),',
      '  primary key (bucket, path)',
      ');',
      'alter table app.file_removals enable row level security;',
      'revoke all on table app.file_removals from public, anon, authenticated;',
    ].join('\n'),
  ];
  for (const entity of files) {
    const fn = `app.${quoteIdent(`${tableName(entity)}__queue_file_removal`)}`;
    const bucket = quoteLiteral(bucketName(entity));
    out.push(
      sqlFunction({
        name: fn,
        args: '',
        argTypes: '',
        returns: 'trigger',
        language: 'plpgsql',
        volatility: 'volatile',
        securityDefiner: true,
        body: [
          'begin',
          // The files port removes the object before the row: nothing left to queue then.
          `  if old.storage_path is not null and exists (select 1 from storage.objects o where o.bucket_id = ${bucket} and o.name = old.storage_path) then`,
          `    insert into app.file_removals (bucket, path) values (${bucket}, old.storage_path) on conflict do nothing;`,
          '  end if;',
          '  return null;',
          'end;',
        ].join('\n'),
        executeTo: [],
        comment: `${entity}: a deleted row's Storage object is queued for removal.`,
      }),
      sqlTrigger('ninefold_50_queue_file_removal', 'after delete', tableRef(entity), fn),
    );
  }
  out.push(
    sqlFunction({
      name: 'public.ninefold_file_removals',
      args: 'p_limit integer default 100',
      argTypes: 'integer',
      returns: 'table (bucket text, path text)',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: true,
      // Taken entries leave the queue; a deliverer whose Storage call fails puts them back with
      // `ninefold_file_removal_failed`.
      body: [
        'delete from app.file_removals q',
        'where (q.bucket, q.path) in (',
        '  select x.bucket, x.path from app.file_removals x order by x.queued_at limit p_limit for update skip locked',
        ')',
        'returning q.bucket, q.path;',
      ].join('\n'),
      executeTo: ['service_role'],
      comment: 'Takes queued Storage objects of deleted file rows (service role only).',
    }),
    sqlFunction({
      name: 'public.ninefold_file_removal_failed',
      args: 'p_bucket text, p_path text',
      argTypes: 'text, text',
      returns: 'void',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: true,
      body: 'insert into app.file_removals (bucket, path) values (p_bucket, p_path) on conflict do nothing;',
      executeTo: ['service_role'],
      comment: 'Puts a Storage object back in the removal queue after a failed delivery (service role only).',
    }),
  );
  return out.join('\n');
}
