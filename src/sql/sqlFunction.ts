import { dollarQuote, sqlComment } from './quote.ts';

export interface SqlFunctionDef {
  /** Qualified, quoted name: `app.has_role`. */
  name: string;
  /** Argument list as written in `create function`: `p_uid uuid, p_role text`. */
  args: string;
  /** Argument types only, for `grant execute on function name(types)`. */
  argTypes: string;
  returns: string;
  language: 'sql' | 'plpgsql';
  volatility: 'stable' | 'volatile' | 'immutable';
  securityDefiner: boolean;
  body: string;
  /**
   * No `set search_path`: Postgres inlines a SQL function without SET clauses into the query that
   * calls it, so the planner sees its conditions (and uses indexes) instead of calling it per row.
   * Only for `security invoker` functions whose names are all schema-qualified (built-ins resolve
   * in pg_catalog first): the caller's search_path changes nothing then, and runs as the caller.
   */
  inlinable?: true;
  /** Roles that may execute it; everyone else is revoked (Supabase grants execute by default). */
  executeTo: readonly string[];
  comment?: string;
}

/**
 * `create or replace function` with a fixed, empty `search_path` (every name inside is
 * schema-qualified) unless `inlinable`, followed by the execute privileges.
 */
export function sqlFunction(f: SqlFunctionDef): string {
  const lines = [
    ...(f.comment ? [sqlComment(f.comment)] : []),
    `create or replace function ${f.name}(${f.args})`,
    `returns ${f.returns}`,
    `language ${f.language} ${f.volatility}${f.securityDefiner ? ' security definer' : ''}`,
    ...(f.inlinable && !f.securityDefiner ? [] : [`set search_path = ''`]),
    `as ${dollarQuote(`\n${f.body.trimEnd()}\n`, 'fn')};`,
    `revoke execute on function ${f.name}(${f.argTypes}) from public, anon, authenticated;`,
  ];
  if (f.executeTo.length > 0)
    lines.push(`grant execute on function ${f.name}(${f.argTypes}) to ${f.executeTo.join(', ')};`);
  return lines.join('\n');
}

/** Indents every line of a block. */
export function indent(text: string, by = 2): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((l) => (l.length > 0 ? pad + l : l))
    .join('\n');
}

/** `create or replace trigger` (PG 14+) so the migration can run twice. */
export function sqlTrigger(name: string, timing: string, table: string, fn: string): string {
  return `create or replace trigger ${name} ${timing} on ${table} for each row execute function ${fn}();`;
}
