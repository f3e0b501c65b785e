import { sqlTypeOf } from '../model/column.ts';
import type { AppSpec } from '../spec/types.ts';

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
export function fieldSqlType(spec: AppSpec, entity: string, field: string): string {
  const f = spec.entities[entity]?.fields[field];
  if (f) return sqlTypeOf(f.type);
  const implicit = IMPLICIT[field] ?? (spec.entities[entity]?.files ? FILE_FIELDS[field] : undefined);
  if (implicit) return implicit;
  throw new Error(`fieldSqlType: unknown field ${entity}.${field}`);
}
