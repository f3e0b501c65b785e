import { bucketName } from '../../model/storageNames.ts';
import { BackendError, type FilesPort } from '../types.ts';
import { type EntityModel, modelOf, STORAGE_PATH_COLUMN, toColumns, toRow } from './entityModel.ts';
import { mapStorageError } from './mapSupabaseError.ts';
import { objectPath } from './storagePaths.ts';
import { run, type SupabaseContext } from './supabaseContext.ts';

type Record_ = Record<string, unknown>;

function filesModel(ctx: SupabaseContext, entity: string): EntityModel {
  const model = modelOf(ctx.models, entity);
  if (!model.files) throw new BackendError('INVALID_INPUT', { entity, reason: 'not-a-files-entity' });
  return model;
}

/**
 * Files on Supabase Storage: the row (metadata, and every rule on it) lives in the entity's table,
 * the bytes in the entity's bucket under `<row id>/<name>` (both chosen by the server). On upload the row is written first, so
 * table RLS and checks (size and type limits) decide before any byte is stored; the storage
 * policies (docs/hosting.md) let an object be read, written or removed only through its row.
 */
export function createFilesPort(ctx: SupabaseContext): FilesPort {
  const { client } = ctx;

  async function fileRow(model: EntityModel, id: string): Promise<Record_> {
    const { data } = await run(ctx, client.from(model.table).select('*').eq('id', id).maybeSingle<Record_>());
    if (!data) throw new BackendError('NOT_FOUND', { entity: model.entity, id });
    return data;
  }

  function pathOf(row: Record_, id: string): string {
    const stored = row[STORAGE_PATH_COLUMN];
    return typeof stored === 'string' && stored !== '' ? stored : objectPath(id, String(row.name ?? ''));
  }

  return {
    async upload(entity, file) {
      const model = filesModel(ctx, entity);
      // The server chooses the id and the object's path (`<id>/<name>`); they come back from the insert.
      const body = {
        ...toColumns(model, file.values),
        name: file.name,
        size_bytes: file.bytes.byteLength,
        mime_type: file.type || 'application/octet-stream',
      };
      const { data } = await run(ctx, client.from(model.table).insert(body).select('*').single<Record_>());
      if (!data || typeof data.id !== 'string') throw new BackendError('INTERNAL');
      const id = data.id;
      const { error } = await client.storage.from(bucketName(entity)).upload(pathOf(data, id), file.bytes, {
        contentType: body.mime_type,
        upsert: false,
      });
      if (error) {
        // No row without its bytes: undo the insert (best effort; the original error is what matters).
        await client
          .from(model.table)
          .delete()
          .eq('id', id)
          .then(
            () => undefined,
            () => undefined,
          );
        throw mapStorageError(error, ctx.auth);
      }
      return toRow(model, data);
    },

    async download(entity, id) {
      const model = filesModel(ctx, entity);
      const row = await fileRow(model, id);
      const { data, error } = await client.storage.from(bucketName(entity)).download(pathOf(row, id));
      if (error || !data) throw mapStorageError(error, ctx.auth);
      return {
        name: String(row.name ?? ''),
        type: String(row.mime_type ?? data.type ?? 'application/octet-stream'),
        bytes: new Uint8Array(await data.arrayBuffer()),
      };
    },

    async remove(entity, id) {
      const model = filesModel(ctx, entity);
      const row = await fileRow(model, id);
      // The object goes first: Postgres applies storage.objects' SELECT policy to a DELETE, and that
      // policy needs the row. The object's DELETE policy repeats the table's delete rule, so an
      // object only goes when its row may; the row's own delete below is the final word.
      const { error } = await client.storage.from(bucketName(entity)).remove([pathOf(row, id)]);
      if (error) throw mapStorageError(error, ctx.auth);
      const { count } = await run(ctx, client.from(model.table).delete({ count: 'exact' }).eq('id', id));
      if (count === 0) throw new BackendError('FORBIDDEN', { entity, id });
    },
  };
}
