import { tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { FILE_NAME_MAX_LENGTH, MIME_TYPE_MAX_LENGTH, STORAGE_PATH_MAX_LENGTH } from '../spec/valueLimits.ts';
import { doBlock, quoteIdent, quoteLiteral } from './quote.ts';
import { type Target, tableRef } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

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
  // Ceilings as every text a client writes has (src/spec/valueLimits.ts); `__values` names map to
  // INVALID_VALUE on the field, as for declared fields.
  const checks = [
    `${quoteIdent(`${t}__size_bytes__nonnegative`)} check (size_bytes >= 0)`,
    `${quoteIdent(`${t}__name__values`)} check (char_length(name) <= ${FILE_NAME_MAX_LENGTH})`,
    `${quoteIdent(`${t}__mime_type__values`)} check (char_length(mime_type) <= ${MIME_TYPE_MAX_LENGTH})`,
  ];
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
      `${quoteIdent(`${t}__storage_path__values`)} check (char_length(storage_path) <= ${STORAGE_PATH_MAX_LENGTH})`,
    );
  }
  const unique =
    target === 'supabase'
      ? [
          `create unique index if not exists ${quoteIdent(`${t}__storage_path__unique`)} on ${tableRef(entity)} (storage_path);`,
          emitStoragePathTrigger(entity),
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

/**
 * Hosted files: the server names a new row's Storage object, `<row id>/<name>` with the name kept
 * to the characters Storage accepts (the same mapping as `objectPath` in
 * src/backend/supabase/storagePaths.ts). Clients may give neither the id nor the path (emitGrants):
 * the adapter inserts the row, reads back its path and uploads there.
 */
function emitStoragePathTrigger(entity: string): string {
  const fn = `app.${quoteIdent(`${tableName(entity)}__storage_path`)}`;
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: [
        'declare',
        '  v_name text;',
        'begin',
        '  if new.storage_path is null then',
        "    v_name := regexp_replace(new.name, '[^A-Za-z0-9_!.*''() &$@=;:+,?-]', '_', 'g');",
        "    new.storage_path := new.id::text || '/' || case when v_name in ('', '.', '..') then 'file' else v_name end;",
        '  end if;',
        '  return new;',
        'end;',
      ].join('\n'),
      executeTo: [],
      comment: 'A new file row gets its Storage path from the server: <row id>/<name>.',
    }),
    sqlTrigger('ninefold_05_storage_path', 'before insert', tableRef(entity), fn),
  ].join('\n');
}
