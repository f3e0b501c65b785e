import type { AppModel } from '../model/appModel.ts';
import { sqlTypeOf } from '../model/column.ts';
import { implicitColumnOf } from '../model/implicitColumns.ts';

/** The Postgres type of an entity's field, declared or implicit (id, createdAt, updatedAt, version). */
export function fieldSqlType(model: AppModel, entity: string, field: string): string {
  const e = model.tables.get(entity)?.spec;
  const f = e?.fields[field];
  if (f) return sqlTypeOf(f.type);
  const implicit = implicitColumnOf(field, e?.files === true);
  if (implicit) return implicit.sqlType;
  throw new Error(`fieldSqlType: unknown field ${entity}.${field}`);
}
