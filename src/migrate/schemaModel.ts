/**
 * The deployed shape of a database, as data: what `ninefold migrate` diffs. Two kinds of objects:
 *
 * - **data-bearing** (tables, columns, constraints, indexes): diffed one by one, so a change
 *   keeps every row (`ALTER`, never drop-and-create);
 * - **behaviour** (functions, triggers, policies): hold no data; a migration drops every one the
 *   old model had and the current migration creates them again, so the result is exactly a fresh
 *   migration's (see docs/migrations.md).
 *
 * Built by `schemaModelOf(sql)` from the compiler's own output (one parser over a format the
 * compiler controls), plus the spec facts a diff needs (which table is which entity, which column
 * which field, the states). When `src/model/` (the resolved app model) lands, this is the adapter
 * to replace: the node kinds below are the ones the model has.
 */

export interface ColumnShape {
  /** SQL type as written by the compiler: `text`, `numeric`, `text[]`, `timestamptz`… */
  type: string;
  notNull: boolean;
  /** The default expression as written, if any. */
  default?: string;
}

export interface ConstraintShape {
  /** Everything after the constraint name: `check (…)`, `unique (email)`, `foreign key (…) references …`. */
  def: string;
  /** `inline`: inside `create table` (a migration must add it to an existing table); `added`: the migration adds it itself when missing. */
  source: 'inline' | 'added';
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  constraints: Record<string, ConstraintShape>;
}

export interface IndexShape {
  table: string;
  /** `create [unique] index if not exists <name> on <table> (…);` */
  sql: string;
}

/** Objects that hold no data, by what `drop … if exists` needs. */
export interface BehaviourShape {
  /** `app.has_role(uuid, text)` */
  functions: string[];
  /** `[trigger name, table]` */
  triggers: [string, string][];
  /** `[policy name, table]` */
  policies: [string, string][];
  /** `public.time_entry__readable`: the masking views of per-field reads (absent when none). */
  views?: string[];
}

export interface SchemaShape {
  /** By qualified table name (`public.ticket`, `app.user_roles`). */
  tables: Record<string, TableShape>;
  indexes: Record<string, IndexShape>;
  behaviour: BehaviourShape;
  /** Tables in the `supabase_realtime` publication (supabase target). */
  publication: string[];
}

const IDENT = `(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const QUALIFIED = String.raw`${IDENT}\.${IDENT}`;

/** Splits a `create table` body into its comma-separated entries (commas inside parentheses or quotes are not separators). */
function splitEntries(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quote) {
      if (ch === quote) {
        if (body[i + 1] === quote) i++;
        else quote = null;
      }
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = body.slice(start).trim();
  if (last.length > 0) out.push(last);
  return out;
}

function readIdent(text: string): [string, string] {
  const m = new RegExp(`^(${IDENT})\\s*`).exec(text);
  if (!m?.[1]) throw new Error(`schemaModelOf: expected a name at "${text.slice(0, 40)}"`);
  return [m[1], text.slice(m[0].length)];
}

/** Parses one column entry: `name type [not null] [default expr] [constraint n check (…)] [references …]`. */
function parseColumn(
  entry: string,
  constraints: Record<string, ConstraintShape>,
): [string, ColumnShape] | null {
  const [name, rest] = readIdent(entry);
  if (name === 'constraint' || name === 'primary') return null;
  const typeMatch = /^([a-z]+(?:\[\])?)\s*/.exec(rest);
  if (!typeMatch?.[1]) throw new Error(`schemaModelOf: no type in "${entry}"`);
  let tail = rest.slice(typeMatch[0].length);
  const inline = new RegExp(`\\s*constraint (${IDENT}) (check \\(.*\\))$`).exec(tail);
  if (inline?.[1] && inline[2]) {
    constraints[inline[1]] = { def: inline[2], source: 'inline' };
    tail = tail.slice(0, inline.index);
  }
  const col: ColumnShape = { type: typeMatch[1], notNull: /(^|\s)not null(\s|$)/.test(tail) };
  const def = /(?:^|\s)default (.*?)(?:\s+references .*)?$/.exec(tail);
  if (def?.[1]) col.default = def[1];
  return [name, col];
}

/**
 * Reads the data-bearing shape and the behaviour objects out of a migration the compiler wrote.
 * Pure. Statements it does not know are ignored (grants, comments, bodies).
 *
 * @example
 * schemaModelOf(compileMigration(spec)).tables['public.ticket'].columns.title; // { type: 'text', notNull: true }
 */
export function schemaModelOf(sql: string): SchemaShape {
  const tables: Record<string, TableShape> = {};
  const indexes: Record<string, IndexShape> = {};
  const behaviour: BehaviourShape = { functions: [], triggers: [], policies: [] };
  const publication: string[] = [];
  // Function bodies are dollar-quoted; nothing inside them is a statement of the migration.
  const text = sql.replace(/\$(fn\d*)\$[\s\S]*?\$\1\$/g, "''");

  for (const m of text.matchAll(
    new RegExp(`^create table if not exists (${QUALIFIED}) \\(\\n([\\s\\S]*?)\\n\\);`, 'gm'),
  )) {
    const [, table, body] = m;
    if (!table || body === undefined) continue;
    const shape: TableShape = { columns: {}, constraints: {} };
    for (const entry of splitEntries(body)) {
      const c = new RegExp(`^constraint (${IDENT}) (.*)$`, 's').exec(entry);
      if (c?.[1] && c[2]) {
        shape.constraints[c[1]] = { def: c[2], source: 'inline' };
        continue;
      }
      const col = parseColumn(entry, shape.constraints);
      if (col) shape.columns[col[0]] = col[1];
    }
    tables[table] = shape;
  }
  for (const m of text.matchAll(
    new RegExp(`alter table (${QUALIFIED}) add constraint (${IDENT}) (.*);$`, 'gm'),
  )) {
    const [, table, name, def] = m;
    const t = table ? tables[table] : undefined;
    if (t && name && def) t.constraints[name] = { def, source: 'added' };
  }
  for (const m of text.matchAll(
    new RegExp(`^create (unique )?index if not exists (${IDENT}) on (${QUALIFIED}) (.*);$`, 'gm'),
  )) {
    const [all, , name, table] = m;
    if (name && table) indexes[name] = { table, sql: all };
  }
  for (const m of text.matchAll(new RegExp(`^create or replace view (${QUALIFIED}) `, 'gm')))
    if (m[1]) behaviour.views = [...(behaviour.views ?? []), m[1]];
  for (const m of text.matchAll(/^revoke execute on function (.+?\)) from /gm)) {
    if (m[1] && !behaviour.functions.includes(m[1])) behaviour.functions.push(m[1]);
  }
  for (const m of text.matchAll(
    new RegExp(`^create (?:or replace |constraint )trigger (${IDENT}) .*? on (${QUALIFIED})(?: |$)`, 'gm'),
  )) {
    if (m[1] && m[2]) behaviour.triggers.push([m[1], m[2]]);
  }
  for (const m of text.matchAll(new RegExp(`^create policy (${IDENT}) on (${QUALIFIED}) `, 'gm'))) {
    if (m[1] && m[2]) behaviour.policies.push([m[1], m[2]]);
  }
  for (const m of text.matchAll(
    new RegExp(`alter publication supabase_realtime add table (${QUALIFIED});`, 'g'),
  )) {
    if (m[1]) publication.push(m[1]);
  }
  return { tables, indexes, behaviour, publication };
}
