import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { quoteIdent } from './quote.ts';
import { type Target, tableRef } from './specModel.ts';

/**
 * The implied columns of a files entity. Embedded: the bytes live in the row (`content bytea`).
 * Supabase: the bytes live in Storage and the row keeps the object's path.
 */
export function fileColumns(target: Target): string[] {
  const common = [
    'name text not null',
    'size_bytes bigint not null',
    "mime_type text not null default 'application/octet-stream'",
  ];
  // TODO(hosted adapter): Storage bucket + storage.objects policies mirroring this table's policies.
  return target === 'supabase' ? [...common, 'storage_path text'] : [...common, 'content bytea'];
}

/**
 * Integrity of file rows: a size is never negative, and (embedded) the recorded size is the size of
 * the stored bytes, so limits written as validation rules on `size` hold for the real content.
 * Size, type and count limits themselves are validation rules of the spec (`size <= maxUploadBytes`,
 * `count(attachment where ticket = this.ticket) < maxAttachments`).
 */
export function emitFileChecks(spec: AppSpec, entity: string, target: Target): string {
  if (!spec.entities[entity]?.files) return '';
  const t = tableName(entity);
  const checks = [`${quoteIdent(`${t}__size_bytes__nonnegative`)} check (size_bytes >= 0)`];
  if (target === 'embedded') {
    checks.push(
      `${quoteIdent(`${t}__size_bytes__matches_content`)} check (content is null or octet_length(content) = size_bytes)`,
    );
  }
  return checks
    .map((c) => {
      const name = c.slice(0, c.indexOf(' '));
      return [
        'do $do$ begin',
        `  if not exists (select 1 from pg_catalog.pg_constraint where conname = '${name.replaceAll('"', '')}' and conrelid = '${tableRef(entity).replaceAll("'", "''")}'::regclass) then`,
        `    alter table ${tableRef(entity)} add constraint ${c};`,
        '  end if;',
        'end $do$;',
      ].join('\n');
    })
    .join('\n');
}
