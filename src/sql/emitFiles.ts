import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { doBlock, quoteIdent, quoteLiteral } from './quote.ts';
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
  // Supabase: the bucket and the storage.objects policies are emitStorage.ts.
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
  } else {
    // A row may point only into its own folder (`<row id>/…`), and (index below) at an object no
    // other row uses: otherwise a user could point a row of theirs at someone else's object and read it.
    // Exactly `<id>/<name>`: no `..`, no further folders, no backslash (docs/security.md, "Storage").
    checks.push(
      `${quoteIdent(`${t}__storage_path__own_folder`)} check (storage_path is null or (split_part(storage_path, '/', 1) = id::text and storage_path ~ '^[^/\\\\]+/[^/\\\\]+$' and split_part(storage_path, '/', 2) not in ('.', '..')))`,
    );
  }
  const unique =
    target === 'supabase'
      ? [
          `create unique index if not exists ${quoteIdent(`${t}__storage_path__unique`)} on ${tableRef(entity)} (storage_path);`,
        ]
      : [];
  const added = checks.map((c) => {
    const name = c.slice(0, c.indexOf(' '));
    return doBlock(
      [
        ' begin',
        `  if not exists (select 1 from pg_catalog.pg_constraint where conname = ${quoteLiteral(name.replaceAll('"', ''))} and conrelid = ${quoteLiteral(tableRef(entity))}::regclass) then`,
        `    alter table ${tableRef(entity)} add constraint ${c};`,
        '  end if;',
        'end ',
      ].join('\n'),
    );
  });
  return [...added, ...unique].join('\n');
}
