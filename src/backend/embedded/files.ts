import { quoteIdent } from '../../sql/quote.ts';
import { BackendError, type FilesPort } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { checkId, insertRow, visibleVersion } from './data.ts';
import { entityInfo } from './entityInfo.ts';
import { asCaller } from './request.ts';

/**
 * Files of entities with `files: true`: the bytes live in the row (`content bytea`), so the size
 * and count limits written as validation rules are checked by the database itself.
 *
 * @example
 * await backend.files.upload('attachment', { values: { ticket: id }, name: 'a.png', type: 'image/png', bytes });
 */
export function createFilesPort(ctx: EmbeddedContext): FilesPort {
  const fileEntity = (entity: string) => {
    const info = entityInfo(ctx.model, entity);
    if (!info.files) throw new BackendError('INVALID_INPUT', { entity, reason: 'not-a-file-entity' });
    return info;
  };

  return {
    async upload(entity, file) {
      const info = fileEntity(entity);
      const row = await asCaller(ctx, async (tx) => {
        const values = { ...file.values, name: file.name, type: file.type || 'application/octet-stream' };
        // The size is recorded from the bytes; the database checks it matches and applies the limits.
        return insertRow(tx, info, { ...values, size: file.bytes.byteLength }, ['name', 'type', 'size'], {
          content: file.bytes,
        });
      });
      ctx.emitChange({ entity, id: row.id, kind: 'insert' });
      return row;
    },

    async download(entity, id) {
      const info = fileEntity(entity);
      checkId(info, id);
      return asCaller(ctx, async (tx) => {
        const r = await tx.query<{ name: string; mime_type: string; content: Uint8Array | null }>(
          `select name, mime_type, content from ${info.ref} where id = $1`,
          [id],
        );
        const row = r.rows[0];
        if (!row) throw new BackendError('NOT_FOUND', { entity, id });
        return { name: row.name, type: row.mime_type, bytes: row.content ?? new Uint8Array() };
      });
    },

    async remove(entity, id) {
      const info = fileEntity(entity);
      checkId(info, id);
      await asCaller(ctx, async (tx) => {
        const r = await tx.query(`delete from ${info.ref} where id = $1 returning ${quoteIdent('id')}`, [id]);
        if (r.rows.length > 0) return;
        if ((await visibleVersion(tx, info, id)) === null)
          throw new BackendError('NOT_FOUND', { entity, id });
        throw new BackendError('FORBIDDEN', { entity, action: 'delete' });
      });
      ctx.emitChange({ entity, id, kind: 'delete' });
    },
  };
}
