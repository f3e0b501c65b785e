import type { AppModel } from '../model/index.ts';
import { bucketName } from '../model/storageNames.ts';
import { qualified, quoteLiteral } from './quote.ts';
import { tableOf, tableRef } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

/**
 * Hosted files outlive their rows otherwise (issue 11, finding 9): a row deleted by a cascade (a
 * ticket's attachments) or straight through the REST API leaves its Storage object behind. Every
 * delete of a files row whose object still exists queues the object in `app.file_removals`, in the
 * deleting transaction. The `ninefold-outbox` Edge Function (docs/hosting.md, "Stored files of
 * deleted rows") takes the due entries with `public.ninefold_file_removals()` (leased, `for update
 * skip locked`), removes each object through the Storage API, which is the only supported way to
 * delete them, and reports `ninefold_file_removed` or `ninefold_file_removal_failed`: the outbox's
 * retry scheme (backoff doubling from 30 s, failed for good with its error after 8 attempts).
 * Clients never see the queue.
 */
export function emitFileRemovals(model: AppModel): string {
  const files = [...model.tables.values()].filter((t) => t.files).map((t) => t.entity);
  if (files.length === 0) return '';
  const out = [
    [
      'create table if not exists app.file_removals (',
      '  bucket text not null,',
      '  path text not null,',
      '  queued_at timestamptz not null default now(),',
      '  primary key (bucket, path)',
      ');',
      // Delivery state, as the outbox keeps it (queues made before it gain the columns here).
      'alter table app.file_removals add column if not exists attempts integer not null default 0;',
      'alter table app.file_removals add column if not exists next_attempt_at timestamptz not null default now();',
      'alter table app.file_removals add column if not exists locked_until timestamptz;',
      'alter table app.file_removals add column if not exists last_error text;',
      "alter table app.file_removals add column if not exists status text not null default 'pending';",
      'alter table app.file_removals drop constraint if exists file_removals__status;',
      "alter table app.file_removals add constraint file_removals__status check (status in ('pending', 'failed'));",
      'alter table app.file_removals enable row level security;',
      // Forced like every other table: even the owner's own queries go through the (absent) policies.
      'alter table app.file_removals force row level security;',
      'revoke all on table app.file_removals from public, anon, authenticated;',
      // The first versions took entries by deleting them and had other signatures: replaced below.
      'drop function if exists public.ninefold_file_removals(integer);',
      'drop function if exists public.ninefold_file_removal_failed(text, text);',
    ].join('\n'),
  ];
  for (const entity of files) {
    const fn = qualified('app', tableOf(model, entity).names.queueFileRemoval);
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
      sqlTrigger('ninefold_50_queue_file_removal', 'after delete', tableRef(model, entity), fn),
    );
  }
  out.push(
    sqlFunction({
      name: 'public.ninefold_file_removals',
      args: 'p_limit integer default 100, p_lease_seconds integer default 60',
      argTypes: 'integer, integer',
      returns: 'table (bucket text, path text, attempts integer)',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: true,
      // Leased, never deleted on taking: a deliverer that dies mid-way leaves the entry to the next
      // run once the lease has passed; two deliverers never take the same entry at once.
      body: [
        'update app.file_removals q',
        'set attempts = q.attempts + 1, locked_until = now() + make_interval(secs => p_lease_seconds)',
        'where (q.bucket, q.path) in (',
        '  select x.bucket, x.path from app.file_removals x',
        "  where x.status = 'pending' and x.next_attempt_at <= now() and (x.locked_until is null or x.locked_until < now())",
        '  order by x.next_attempt_at, x.queued_at limit greatest(p_limit, 0) for update skip locked',
        ')',
        'returning q.bucket, q.path, q.attempts;',
      ].join('\n'),
      executeTo: ['service_role'],
      comment: 'Takes the due Storage objects of deleted file rows, leased (service role only).',
    }),
    sqlFunction({
      name: 'public.ninefold_file_removed',
      args: 'p_bucket text, p_path text',
      argTypes: 'text, text',
      returns: 'boolean',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: true,
      body: [
        'with d as (delete from app.file_removals q where q.bucket = p_bucket and q.path = p_path returning 1)',
        'select exists (select 1 from d);',
      ].join('\n'),
      executeTo: ['service_role'],
      comment: 'The Storage object is gone: its entry leaves the queue (service role only).',
    }),
    sqlFunction({
      name: 'public.ninefold_file_removal_failed',
      args: 'p_bucket text, p_path text, p_error text default null, p_max_attempts integer default 8, p_base_seconds double precision default 30',
      argTypes: 'text, text, text, integer, double precision',
      returns: 'text',
      language: 'sql',
      volatility: 'volatile',
      securityDefiner: true,
      // The outbox's backoff: base, 2×base, 4×base, … after attempts 1, 2, 3, …; failed after the last.
      body: [
        'update app.file_removals q set',
        "  status = case when q.attempts >= p_max_attempts then 'failed' else 'pending' end,",
        '  next_attempt_at = now() + make_interval(secs => p_base_seconds * power(2, greatest(q.attempts - 1, 0))),',
        '  locked_until = null,',
        '  last_error = left(p_error, 2000)',
        'where q.bucket = p_bucket and q.path = p_path',
        'returning q.status;',
      ].join('\n'),
      executeTo: ['service_role'],
      comment:
        'A removal failed: retried with backoff, or failed for good with its error (service role only).',
    }),
  );
  return out.join('\n');
}
