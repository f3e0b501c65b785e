import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/index.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import { jsString, lineComment } from './codeText.ts';
import { type PrintColumn, type PrintTable, printerTables } from './printerModel.ts';

// `ninefold types`: the database's TypeScript types in the shape `supabase gen types typescript`
// prints (Database → public → Tables → Row/Insert/Update/Relationships, Views, Functions, Enums,
// CompositeTypes), so `createClient<Database>(…)` of supabase-js types a hand-written client.
// One deliberate difference: enum and status columns are text with a CHECK in the migration, so
// `supabase gen types` would say `string`; here they name their values (`Enums`), which is what
// the CHECK lets through.

/** Columns that are not fields (id, timestamps, version, file metadata), by Postgres type. */
const TS_TYPES: Record<string, string> = {
  text: 'string',
  uuid: 'string',
  timestamptz: 'string',
  integer: 'number',
  bigint: 'number',
};

const key = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : jsString(name));
const lit = (v: string): string => jsString(v);

/** The `Enums` entry of an enum/status/tags column: `<table>_<column>`. */
export function enumTypeName(table: string, column: string): string {
  return `${table}_${column}`;
}

function columnType(t: PrintTable, c: PrintColumn): string {
  let base = c.spec ? FIELD_TYPES[c.spec.type].ts : (TS_TYPES[c.sqlType] ?? 'unknown');
  if (c.values) {
    const name = `Database["public"]["Enums"][${lit(enumTypeName(t.table, c.column))}]`;
    base = c.sqlType === 'text[]' ? `${name}[]` : name;
  }
  return c.nullable ? `${base} | null` : base;
}

function block(indent: number, lines: readonly string[]): string {
  const pad = ' '.repeat(indent);
  return lines
    .flatMap((l) => l.split('\n'))
    .map((l) => (l === '' ? '' : `${pad}${l}`))
    .join('\n');
}

function tableType(t: PrintTable): string[] {
  const row = t.columns.map((c) => `${key(c.column)}: ${columnType(t, c)}`);
  const insert = t.columns.map(
    (c) => `${key(c.column)}${c.optionalOnInsert ? '?' : ''}: ${columnType(t, c)}`,
  );
  const update = t.columns.map((c) => `${key(c.column)}?: ${columnType(t, c)}`);
  const rels = t.columns
    .filter((c) => c.references)
    .map((c) =>
      [
        '{',
        `  foreignKeyName: ${lit(`${t.table}__${c.column}__fk`)}`,
        `  columns: [${lit(c.column)}]`,
        '  isOneToOne: false',
        `  referencedRelation: ${lit(c.references ?? '')}`,
        '  referencedColumns: ["id"]',
        '},',
      ].join('\n'),
    );
  return [
    `${key(t.table)}: {`,
    '  Row: {',
    block(4, row),
    '  }',
    '  Insert: {',
    block(4, insert),
    '  }',
    '  Update: {',
    block(4, update),
    '  }',
    rels.length === 0 ? '  Relationships: []' : `  Relationships: [\n${block(4, rels)}\n  ]`,
    '}',
  ];
}

function historyType(t: PrintTable, history: string): string[] {
  const cols: [string, string][] = [
    ['id', 'string'],
    ['row_id', 'string'],
    ['kind', 'string'],
    ['transition', 'string'],
    ['from_state', 'string'],
    ['to_state', 'string'],
    ['actor', 'string | null'],
    ['at', 'string'],
    ['input', 'Json'],
    ['previous', 'Json'],
  ];
  const optional = new Set(['id', 'kind', 'actor', 'at', 'input', 'previous']);
  return [
    `${key(history)}: {`,
    '  Row: {',
    block(
      4,
      cols.map(([c, ty]) => `${c}: ${ty}`),
    ),
    '  }',
    '  // Append-only: rows are written by the transition functions, never by a client.',
    '  Insert: {',
    block(
      4,
      cols.map(([c, ty]) => `${c}${optional.has(c) ? '?' : ''}: ${ty}`),
    ),
    '  }',
    '  Update: {',
    block(
      4,
      cols.map(([c, ty]) => `${c}?: ${ty}`),
    ),
    '  }',
    '  Relationships: [',
    '    {',
    `      foreignKeyName: ${lit(`${history}__row_id__fk`)}`,
    '      columns: ["row_id"]',
    '      isOneToOne: false',
    `      referencedRelation: ${lit(t.table)}`,
    '      referencedColumns: ["id"]',
    '    },',
    '  ]',
    '}',
  ];
}

function functionTypes(tables: readonly PrintTable[]): string[] {
  const out: string[] = [];
  const fns: [string, string, string][] = [];
  for (const t of tables)
    for (const tr of t.transitions)
      fns.push([
        tr.fn,
        '{ p_id: string; p_version?: number; p_input?: Json }',
        `Database["public"]["Tables"][${lit(t.table)}]["Row"]`,
      ]);
  fns.push(
    [
      'admin_list_users',
      'Record<PropertyKey, never>',
      '{ id: string; email: string; roles: string[]; created_at: string }[]',
    ],
    ['grant_role', '{ p_user_id: string; p_role: string }', 'undefined'],
    ['my_roles', 'Record<PropertyKey, never>', 'string[]'],
    ['revoke_role', '{ p_user_id: string; p_role: string }', 'undefined'],
    ['set_roles', '{ p_user_id: string; p_roles: string[] }', 'undefined'],
    ['user_roles', '{ p_user_id: string }', 'string[]'],
  );
  fns.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, args, returns] of fns)
    out.push(`${key(name)}: {`, `  Args: ${args}`, `  Returns: ${returns}`, '}');
  return out;
}

function enumTypes(tables: readonly PrintTable[]): string[] {
  const out: string[] = [];
  for (const t of tables)
    for (const c of t.columns)
      if (c.values) out.push(`${key(enumTypeName(t.table, c.column))}: ${c.values.map(lit).join(' | ')}`);
  return out;
}

const never = '{ [_ in never]: never }';

/**
 * The database types of a specification, as TypeScript source in `supabase gen types` shape.
 *
 * @example
 * writeFileSync('database.types.ts', printTypes(spec));
 * // import type { Database } from './database.types'; createClient<Database>(url, key)
 */
export function printTypes(app: SpecOrModel): string {
  return typesSource(modelOf(app));
}

/** {@link printTypes} of a resolved app. */
export function typesSource(model: AppModel): string {
  const tables = printerTables(model);
  const tableEntries: string[] = [];
  for (const t of [...tables].sort((a, b) => (a.table < b.table ? -1 : 1))) {
    tableEntries.push(...tableType(t));
    if (t.history) tableEntries.push(...historyType(t, t.history));
  }
  const enums = enumTypes(tables);
  return `${[
    lineComment(
      `Database types of ${model.purpose.name}, generated by \`ninefold types\` from its specification.`,
    ),
    '// Do not edit: change the specification and run the command again.',
    '',
    'export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]',
    '',
    'export type Database = {',
    '  public: {',
    '    Tables: {',
    block(6, tableEntries),
    '    }',
    `    Views: ${never}`,
    '    Functions: {',
    block(6, functionTypes(tables)),
    '    }',
    enums.length === 0 ? `    Enums: ${never}` : `    Enums: {\n${block(6, enums)}\n    }`,
    `    CompositeTypes: ${never}`,
    '  }',
    '}',
    '',
    'type PublicSchema = Database["public"]',
    '',
    '/** The row of a table: `Tables<"ticket">`. */',
    'export type Tables<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Row"]',
    '/** What an insert into a table takes: `TablesInsert<"ticket">`. */',
    'export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]',
    '/** What an update of a table takes: `TablesUpdate<"ticket">`. */',
    'export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]',
    '/** The values of an enumeration or status column: `Enums<"ticket_status">`. */',
    'export type Enums<T extends keyof PublicSchema["Enums"]> = PublicSchema["Enums"][T]',
  ].join('\n')}\n`;
}
