import { FILE_META_SQL_COLUMNS } from '../model/implicitColumns.ts';
import type { AppModel } from '../model/index.ts';
import { historyTable } from './emitHistory.ts';
import { updatableFields } from './emitRowTriggers.ts';
import { doBlock, quoteIdent } from './quote.ts';
import { colSql, grantsFor, type Target, tableOf } from './specModel.ts';

/** Schema usage for the API roles. Tables and functions get their privileges one by one. */
export function emitSchemaGrants(): string {
  return [
    'grant usage on schema public to anon, authenticated;',
    'grant usage on schema app to anon, authenticated;',
    'grant usage on schema auth to anon, authenticated;',
  ].join('\n');
}

/**
 * The API roles' settings, which PostgREST applies to each request it runs as them (`alter role …
 * set`, database-independent: it reads `pg_roles.rolconfig`). JIT off: row-level security's quals
 * raise a list query's estimated cost past `jit_above_cost`, and compiling then took 20 ms of a
 * query that ran in 1 (docs/decisions.md, "JIT off for the API roles"). Set only when not set, and
 * a concurrent migration's identical change (`tuple concurrently updated`) is not an error.
 */
export function emitApiRoleSettings(): string {
  return ['anon', 'authenticated']
    .map((role) =>
      doBlock(`begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = '${role}' and 'jit=off' = any (rolconfig)) then
    alter role ${role} set jit = off;
  end if;
exception when internal_error then null;
end`),
    )
    .join('\n');
}

/** Columns a client may give on insert: the fields minus owner/status fields and fields only transitions write. */
export function insertableFields(model: AppModel, entity: string): string[] {
  const t = tableOf(model, entity);
  const updatable = new Set(updatableFields(model, entity));
  // Fields transitions write (their `set` and their `input`) are the transitions' to write: a client
  // must not pre-fill a resolution or a payment reference on create (unless some role may update it).
  const setOnly = new Set(
    t.transitions.flatMap((tr) => [...Object.keys(tr.set), ...tr.input, ...tr.optionalInput]),
  );
  const owners = new Set(t.ownerFields);
  return Object.keys(t.spec.fields).filter(
    (f) => !owners.has(f) && f !== t.statusField && (!setOnly.has(f) || updatable.has(f)),
  );
}

/**
 * Table privileges per spec: everything revoked first (Supabase grants all to anon and
 * authenticated by default), then select/insert/update/delete only where some role has the
 * permission, insert and update limited to the columns the spec lets a client write.
 */
export function emitTableGrants(model: AppModel, entity: string, target: Target = 'embedded'): string {
  const t = tableOf(model, entity);
  const table = t.ref;
  const grants = grantsFor(model, entity);
  const has = (a: string) => grants.some((g) => g.action === a);
  const cols = (fields: readonly string[]) => fields.map((f) => colSql(model, entity, f)).join(', ');
  const out = [`revoke all on table ${table} from anon, authenticated;`];
  // A read-restricted column is never granted: clients read it masked (emitFieldReads.ts).
  const hidden = new Set(t.readRestricted.map((c) => c.column));
  if (has('read'))
    out.push(
      hidden.size === 0
        ? `grant select on table ${table} to authenticated;`
        : `grant select (${t.columns
            .filter((c) => !hidden.has(c.column))
            .map((c) => quoteIdent(c.column))
            .join(', ')}) on table ${table} to authenticated;`,
    );
  if (has('create')) {
    // Ids are the server's (gen_random_uuid): a client choosing one could re-use a deleted row's id,
    // or probe for hidden rows by their key. A hosted file's Storage path is the server's too
    // (`<id>/<name>`, emitFiles.ts): the adapter reads it back from the insert.
    const fileCols = t.files ? [...FILE_META_SQL_COLUMNS, ...(target === 'supabase' ? [] : ['content'])] : [];
    const list = [
      ...fileCols.map(quoteIdent),
      ...insertableFields(model, entity).map((f) => colSql(model, entity, f)),
    ];
    out.push(`grant insert (${list.join(', ')}) on table ${table} to authenticated;`);
  }
  const updatable = updatableFields(model, entity);
  if (has('update') && updatable.length > 0)
    out.push(`grant update (${cols(updatable)}) on table ${table} to authenticated;`);
  if (has('delete')) out.push(`grant delete on table ${table} to authenticated;`);
  if (t.historyTable !== undefined) {
    const h = historyTable(t);
    out.push(
      `revoke all on table ${h} from anon, authenticated;`,
      `grant select on table ${h} to authenticated;`,
    );
  }
  return out.join('\n');
}
