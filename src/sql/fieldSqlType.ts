import type { AppModel } from '../model/appModel.ts';
import { sqlTypeOf } from '../model/column.ts';

const IMPLICIT: Record<string, string> = {
  id: 'uuid',
  createdAt: 'timestamptz',
  updatedAt: 'timestamptz',
  version: 'integer',
};

/** A files entity's implied fields, under every name rules may use. */
const FILE_FIELDS: Record<string, string> = {
  name: 'text',
  type: 'text',
  mimeType: 'text',
  size: 'bigint',
  sizeBytes: 'bigint',
};

/** The Postgres type of an entity's field, declared or implicit (id, createdAt, updatedAt, version). */
export function fieldSqlType(model: AppModel, entity: string, field: string): string {
  const e = model.tables.get(entity)?.spec;
  const f = e?.fields[field];
  if (f) return sqlTypeOf(f.type);
  const implicit = IMPLICIT[field] ?? (e?.files ? FILE_FIELDS[field] : undefined);
  if (implicit) return implicit;
  throw new Error(`fieldSqlType: unknown field ${entity}.${field}`);
}
