import { columnName, tableName, transitionFunctionName } from '../../naming.ts';
import type { AppSpec, FieldSpec } from '../../spec/types.ts';
import { BackendError } from '../types.ts';

export interface ColumnInfo {
  field: string;
  column: string;
  type: FieldSpec['type'] | 'implicit' | 'file-meta';
}

/** What the data layer needs to know about one entity's table. Pure function of the spec. */
export interface EntityInfo {
  entity: string;
  table: string;
  /** Quoted `public.<table>`. */
  ref: string;
  /** Every readable column, implicit ones first; file bytes excluded (they come only through download). */
  columns: ColumnInfo[];
  byField: ReadonlyMap<string, ColumnInfo>;
  /** Fields the caller may write through create/update (declared fields, plus file name/type). */
  writable: ReadonlySet<string>;
  searchable: string[];
  files: boolean;
  statusField: string | undefined;
}

/** Implicit columns of every table, in the order rows list them. */
const IMPLICIT: ColumnInfo[] = [
  { field: 'id', column: 'id', type: 'implicit' },
  { field: 'createdAt', column: 'created_at', type: 'implicit' },
  { field: 'updatedAt', column: 'updated_at', type: 'implicit' },
  { field: 'version', column: 'version', type: 'implicit' },
];

/** File rows carry these beside their own fields (src/sql/README.md); `content` is the bytes. */
export const FILE_COLUMNS: ColumnInfo[] = [
  { field: 'name', column: 'name', type: 'file-meta' },
  { field: 'type', column: 'mime_type', type: 'file-meta' },
  { field: 'size', column: 'size_bytes', type: 'file-meta' },
];

export function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const cache = new WeakMap<AppSpec, Map<string, EntityInfo>>();

/**
 * Table and column facts for an entity; rejects with UNKNOWN_ENTITY for names not in the spec.
 *
 * @example
 * entityInfo(spec, 'ticket').byField.get('assignedTo')?.column; // 'assigned_to'
 */
export function entityInfo(spec: AppSpec, entity: string): EntityInfo {
  let perSpec = cache.get(spec);
  if (!perSpec) {
    perSpec = new Map();
    cache.set(spec, perSpec);
  }
  const hit = perSpec.get(entity);
  if (hit) return hit;
  const e = Object.hasOwn(spec.entities, entity) ? spec.entities[entity] : undefined;
  if (!e) throw new BackendError('UNKNOWN_ENTITY', { entity });
  const declared: ColumnInfo[] = Object.entries(e.fields)
    .filter(([, f]) => f.type !== 'file')
    .map(([field, f]) => ({ field, column: columnName(field), type: f.type }));
  const fileMeta = e.files ? FILE_COLUMNS.filter((c) => !Object.hasOwn(e.fields, c.field)) : [];
  const columns = [...IMPLICIT, ...declared, ...fileMeta];
  const statusField = spec.states[entity]?.field;
  const info: EntityInfo = {
    entity,
    table: tableName(entity),
    ref: `public.${quoteIdent(tableName(entity))}`,
    columns,
    byField: new Map(columns.map((c) => [c.field, c])),
    writable: new Set(declared.map((c) => c.field)),
    searchable: declared
      .filter((c) => {
        const f = e.fields[c.field];
        if (!f) return false;
        if (f.search === false) return false;
        return f.search === true || f.type === 'text' || f.type === 'longtext' || f.type === 'email';
      })
      .map((c) => c.column),
    files: e.files === true,
    statusField,
  };
  perSpec.set(entity, info);
  return info;
}

/** `public.<table>_<transition>` quoted. */
export function transitionRef(entity: string, transition: string): string {
  return `public.${quoteIdent(transitionFunctionName(entity, transition))}`;
}

/** `public.<table>_history` quoted. */
export function historyRef(entity: string): string {
  return `public.${quoteIdent(`${tableName(entity)}_history`)}`;
}

/** A column name, always quoted: spec fields like `order`, `user` or `type` are SQL keywords. */
export function col(column: string): string {
  return `"${column.replace(/"/g, '""')}"`;
}
