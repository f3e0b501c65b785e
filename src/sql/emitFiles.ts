import type { AppModel, TableNode } from '../model/index.ts';
import { FILE_NAME_MAX_LENGTH, MIME_TYPE_MAX_LENGTH, STORAGE_PATH_MAX_LENGTH } from '../spec/valueLimits.ts';
import { doBlock, qualified, quoteIdent, quoteLiteral } from './quote.ts';
import type { Target } from './specModel.ts';
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
export function emitFileChecks(model: AppModel, entity: string, target: Target): string {
  const t = model.tables.get(entity);
  if (!t?.files) return '';
  const named = (column: string, what: string) => t.names.columnConstraint(column, what);
  // Ceilings as every text a client writes has (src/spec/valueLimits.ts); `__values` names map to
  // INVALID_VALUE on the field, as for declared fields. [constraint name, its check].
  const checks: [string, string][] = [
    [named('size_bytes', 'nonnegative'), 'check (size_bytes >= 0)'],
    [named('name', 'values'), `check (char_length(name) <= ${FILE_NAME_MAX_LENGTH})`],
    [named('mime_type', 'values'), `check (char_length(mime_type) <= ${MIME_TYPE_MAX_LENGTH})`],
  ];
  if (target === 'embedded') {
    checks.push([
      named('size_bytes', 'matches_content'),
      'check (content is null or octet_length(content) = size_bytes)',
    ]);
  } else {
    // A row may point only into its own folder (`<row id>/…`), and (index below) at an object no
    // other row uses: otherwise a user could point a row of theirs at someone else's object and read it.
    // Exactly `<id>/<name>`: no `..`, no further folders, no backslash (docs/security.md, "Storage").
    checks.push(
      [
        named('storage_path', 'own_folder'),
        "check (storage_path is null or (split_part(storage_path, '/', 1) = id::text and storage_path ~ '^[^/\\\\]+/[^/\\\\]+$' and split_part(storage_path, '/', 2) not in ('.', '..')))",
      ],
      [named('storage_path', 'values'), `check (char_length(storage_path) <= ${STORAGE_PATH_MAX_LENGTH})`],
    );
  }
  const unique =
    target === 'supabase'
      ? [
          `create unique index if not exists ${quoteIdent(named('storage_path', 'unique'))} on ${t.ref} (storage_path);`,
          emitStoragePathTrigger(t),
        ]
      : [];
  const added = checks.map(([name, check]) => {
    return doBlock(
      [
        ' begin',
        `  if not exists (select 1 from pg_catalog.pg_constraint where conname = ${quoteLiteral(name)} and conrelid = ${quoteLiteral(t.ref)}::regclass) then`,
        `    alter table ${t.ref} add constraint ${quoteIdent(name)} ${check};`,
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
function emitStoragePathTrigger(t: TableNode): string {
  const fn = qualified('app', t.names.storagePath);
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
    sqlTrigger('ninefold_05_storage_path', 'before insert', t.ref, fn),
  ].join('\n');
}
