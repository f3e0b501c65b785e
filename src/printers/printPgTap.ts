import type { AppModel } from '../model/appModel.ts';
import type { TableNode } from '../model/index.ts';
import { modelOf, type SpecOrModel } from '../model/index.ts';
import { quoteLiteral, sqlComment } from '../sql/quote.ts';

// `ninefold tests`: a pgTAP suite that checks a database against the specification — run it with
// `supabase test db` (save it as supabase/tests/ninefold.test.sql) after pushing the migration, or
// with psql/pg_prove. It checks what the migration must have put there, so a hand edit that weakens
// enforcement fails:
//   - the permission matrix: every table has RLS enabled and forced, its set of policies is exactly
//     one per role and action the spec grants (plus the history read policy), each for the right
//     command and for `authenticated` only;
//   - the transitions: each is a SECURITY DEFINER function with a fixed search_path, refused to
//     `anon` (no EXECUTE) and answering NOT_FOUND for a row the caller cannot see;
//   - the validation rules: each is the named CHECK constraint or validation trigger the error
//     mapping relies on, and each values list (enum, status) is a CHECK;
//   - per-field reads: a read-restricted column is granted to no client, its read function is a
//     security definer, the view clients read runs as the caller;
//   - the outbox of declared calls: no client writes it or runs the deliverer's functions;
//   - the catalog audit (catalogAudit below), over every table of the app's schemas, whatever the
//     spec says: RLS enabled and forced, no client-chosen id, no client-writable text without a
//     ceiling, no client-writable number that accepts NaN or Infinity.
// Everything runs in one transaction that is rolled back.

const lit = quoteLiteral;
const arr = (xs: readonly string[]): string => `array[${xs.map(lit).join(', ')}]::text[]`;

/** The statements of the suite, each a pgTAP assertion (one test each). */
function assertions(model: AppModel): string[] {
  const out: string[] = [];
  const nobody = '00000000-0000-4000-8000-00000000dead';
  for (const t of model.tables.values()) {
    const table = lit(t.table);
    out.push(`select has_table('public', ${table}, ${lit(`${t.entity}: table public.${t.table}`)});`);
    out.push(
      `select ok((select relrowsecurity and relforcerowsecurity from pg_catalog.pg_class where oid = 'public.${t.table}'::regclass), ${lit(`${t.entity}: row-level security enabled and forced`)});`,
    );
    const policies = model.policies.filter((p) => p.entity === t.entity);
    out.push(
      `select policies_are('public', ${table}, ${arr(policies.map((p) => p.name))}, ${lit(`${t.entity}: exactly the policies the permissions grant`)});`,
    );
    const COMMAND = { read: 'select', create: 'insert', update: 'update', delete: 'delete' } as const;
    for (const p of policies) {
      out.push(
        `select policy_cmd_is('public', ${table}, ${lit(p.name)}, ${lit(COMMAND[p.action])}, ${lit(`${p.role} may ${p.action} ${t.entity}${p.when === true ? '' : ` when ${p.when}`}: ${COMMAND[p.action]} policy`)});`,
        `select policy_roles_are('public', ${table}, ${lit(p.name)}, array['authenticated']::name[], ${lit(`${p.name}: for signed-in users only`)});`,
      );
    }
    for (const c of t.constraints) {
      if (c.kind === 'values')
        out.push(
          `select ok(exists (select 1 from pg_catalog.pg_constraint where conrelid = 'public.${t.table}'::regclass and conname = ${lit(c.name)} and contype = 'c'), ${lit(`${t.entity}.${c.field}: its values are a CHECK`)});`,
        );
      else if (c.kind === 'required')
        out.push(
          `select ok(exists (select 1 from pg_catalog.pg_constraint where conrelid = 'public.${t.table}'::regclass and conname = ${lit(c.name)} and contype = 'c'), ${lit(`${t.entity}.${c.field}: not blank, a CHECK`)});`,
        );
      else if (c.kind === 'unique' && c.ignoreCase)
        out.push(
          `select ok(exists (select 1 from pg_catalog.pg_index i join pg_catalog.pg_class x on x.oid = i.indexrelid where i.indrelid = 'public.${t.table}'::regclass and x.relname = ${lit(c.name)} and i.indisunique), ${lit(`${t.entity}.${c.field}: unique ignoring case`)});`,
        );
      else if (c.kind === 'unique')
        out.push(
          `select ok(exists (select 1 from pg_catalog.pg_constraint where conrelid = 'public.${t.table}'::regclass and conname = ${lit(c.name)} and contype = 'u'), ${lit(`${t.entity}.${c.field}: unique`)});`,
        );
      else if (c.enforcedBy === 'check')
        out.push(
          `select ok(exists (select 1 from pg_catalog.pg_constraint where conrelid = 'public.${t.table}'::regclass and conname = ${lit(c.name)} and contype = 'c' and convalidated), ${lit(`validation ${t.entity} #${(c.rule ?? 0) + 1} (${c.code}): CHECK ${c.name}`)});`,
        );
    }
    const validatedByTrigger = t.constraints.some(
      (c) => c.kind === 'validation' && c.enforcedBy === 'trigger',
    );
    if (validatedByTrigger)
      out.push(
        `select ok(exists (select 1 from pg_catalog.pg_trigger where tgrelid = 'public.${t.table}'::regclass and tgname = 'ninefold_30_validate' and tgenabled <> 'D'), ${lit(`${t.entity}: the validation trigger is enabled`)});`,
      );
    for (const tr of t.transitions) {
      const fn = `public.${tr.functionName}(uuid, integer, jsonb)`;
      const label = `transition ${t.entity}.${tr.name}`;
      out.push(
        `select ok((select prosecdef and proconfig @> array['search_path=""']::text[] from pg_catalog.pg_proc where oid = ${lit(fn)}::regprocedure), ${lit(`${label}: security definer with a fixed search_path`)});`,
        `select ok(not has_function_privilege('anon', ${lit(fn)}, 'execute'), ${lit(`${label}: not callable signed out`)});`,
        `select ok(has_function_privilege('authenticated', ${lit(fn)}, 'execute'), ${lit(`${label}: callable signed in`)});`,
        `set local role authenticated;`,
        `select set_config('request.jwt.claims', ${lit(JSON.stringify({ sub: nobody, role: 'authenticated' }))}, true);`,
        `select throws_ok(${lit(`select public.${tr.functionName}(${lit(nobody)}::uuid)`)}, 'P0001', 'NOT_FOUND', ${lit(`${label}: a row the caller cannot see is NOT_FOUND`)});`,
        `reset role;`,
      );
    }
    out.push(...fieldReadAssertions(t));
    if (t.historyTable)
      out.push(
        `select policies_are('public', ${lit(t.historyTable)}, ${arr([`${t.historyTable}__read`])}, ${lit(`${t.entity}: its history is readable with the row only`)});`,
        `select ok(not has_table_privilege('authenticated', 'public.${t.historyTable}', 'insert') or exists (select 1 from pg_catalog.pg_trigger where tgrelid = 'public.${t.historyTable}'::regclass and tgname = 'ninefold_append_only'), ${lit(`${t.entity}: history is append-only`)});`,
      );
  }
  if (model.calls.size > 0) {
    // The outbox (finding 11): only transitions write it, only the deliverer (service_role) sends.
    const clients = ['anon', 'authenticated'];
    for (const role of clients)
      for (const priv of ['insert', 'update', 'delete'])
        out.push(
          `select ok(not has_table_privilege(${lit(role)}, 'app.outbox', ${lit(priv)}), ${lit(`outbox: ${role} may not ${priv}`)});`,
        );
    for (const fn of [
      'public.outbox_claim(text[], integer, integer)',
      'public.outbox_delivered(uuid, jsonb)',
      'public.outbox_failed(uuid, text, integer, double precision)',
      'app.outbox_write(text, jsonb, jsonb, text, uuid, text)',
    ])
      for (const role of clients)
        out.push(
          `select ok(not has_function_privilege(${lit(role)}, ${lit(fn)}, 'execute'), ${lit(`outbox: ${role} may not execute ${fn.replace(/\(.*$/, '')}`)});`,
        );
    out.push(
      `select ok((select relrowsecurity and relforcerowsecurity from pg_catalog.pg_class where oid = 'app.outbox'::regclass), 'outbox: row-level security enabled and forced');`,
    );
  }
  return out;
}

/**
 * Per-field reads: a read-restricted column is granted to no client (a select naming it is
 * refused), its value reaches clients only through the security-definer read function, and the
 * view clients read runs as the caller (so the table's row-level security applies).
 */
function fieldReadAssertions(t: TableNode): string[] {
  if (t.readRestricted.length === 0) return [];
  const view = `public.${t.readTable}`;
  const out = [
    `select has_view('public', ${lit(t.readTable)}, ${lit(`${t.entity}: clients read ${view}`)});`,
    `select ok((select coalesce('security_invoker=true' = any (reloptions), false) from pg_catalog.pg_class where oid = ${lit(view)}::regclass), ${lit(`${t.entity}: ${view} runs as the caller (row-level security applies)`)});`,
    `select ok(not has_table_privilege('anon', ${lit(view)}, 'select'), ${lit(`${t.entity}: ${view} not readable signed out`)});`,
  ];
  for (const c of t.readRestricted) {
    const fn = `app.${t.names.readField(c.column)}(uuid)`;
    const label = `${t.entity}.${c.field} (read only when ${c.read?.text})`;
    out.push(
      `select ok(not has_column_privilege('authenticated', ${lit(`public.${t.table}`)}, ${lit(c.column)}, 'select') and not has_column_privilege('anon', ${lit(`public.${t.table}`)}, ${lit(c.column)}, 'select'), ${lit(`${label}: its column is granted to no client`)});`,
      `select ok((select prosecdef and proconfig @> array['search_path=""']::text[] from pg_catalog.pg_proc where oid = ${lit(fn)}::regprocedure), ${lit(`${label}: read through a security definer function with a fixed search_path`)});`,
      `select ok(not has_function_privilege('anon', ${lit(fn)}, 'execute'), ${lit(`${label}: its read function is not callable signed out`)});`,
    );
  }
  return out;
}

/** The schemas a Ninefold migration creates tables in. */
const APP_SCHEMAS = "array['public', 'app']::name[]";

/** Columns of the app's tables that `anon` or `authenticated` may insert or update (column privileges). */
const CLIENT_WRITABLE = [
  'with w as (',
  "  select n.nspname || '.' || c.relname || '.' || a.attname as col, c.oid as rel, a.attnum, a.atttypid, a.atttypmod",
  '  from pg_catalog.pg_class c',
  '  join pg_catalog.pg_namespace n on n.oid = c.relnamespace',
  '  join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped',
  `  where n.nspname = any (${APP_SCHEMAS}) and c.relkind in ('r', 'p')`,
  "    and exists (select 1 from pg_catalog.pg_roles r where r.rolname in ('anon', 'authenticated')",
  "      and (has_column_privilege(r.oid, c.oid, a.attnum, 'INSERT') or has_column_privilege(r.oid, c.oid, a.attnum, 'UPDATE'))))",
].join(' ');

/** A CHECK of the column's table on that column whose definition matches `pattern`. */
const checkOnColumn = (pattern: string, and = ''): string =>
  `exists (select 1 from pg_catalog.pg_constraint k where k.conrelid = w.rel and k.contype = 'c' and k.conkey @> array[w.attnum] and pg_catalog.pg_get_constraintdef(k.oid) ~ ${lit(pattern)}${and ? ` and pg_catalog.pg_get_constraintdef(k.oid) ~ ${lit(and)}` : ''})`;

/** One assertion: the query lists no offender (pgTAP shows the offenders when it does). */
const none = (query: string, description: string): string =>
  `select is(array(${query} order by 1), '{}'::text[], ${lit(description)});`;

/**
 * The catalog audit (issue 28, "Done when"): generic queries over pg_class, pg_attribute, the
 * column privileges and pg_constraint of every table in the app's schemas, so a table or column
 * the specification does not know of (a hand edit, a compiler bug) is audited too.
 */
function catalogAudit(): string[] {
  return [
    none(
      `select n.nspname || '.' || c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = any (${APP_SCHEMAS}) and c.relkind in ('r', 'p') and not (c.relrowsecurity and c.relforcerowsecurity)`,
      'catalog: every table has row-level security enabled and forced',
    ),
    none(
      // A row id is a uuid primary-key column that references nothing: a key made of references
      // (`app.user_roles`: a user and a role) is the client's choice by nature.
      `${CLIENT_WRITABLE} select col from w where w.atttypid = 'uuid'::regtype and exists (select 1 from pg_catalog.pg_constraint p where p.conrelid = w.rel and p.contype = 'p' and p.conkey @> array[w.attnum]) and not exists (select 1 from pg_catalog.pg_constraint f where f.conrelid = w.rel and f.contype = 'f' and f.conkey @> array[w.attnum])`,
      'catalog: no client chooses a row id (no uuid key column is client-writable)',
    ),
    none(
      `${CLIENT_WRITABLE} select col from w where w.atttypid in ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'text[]'::regtype) and w.atttypmod < 0 and not ${checkOnColumn(String.raw`(char_length|octet_length|length|cardinality)\([^()]*\) <=`)} and not ${checkOnColumn(String.raw`= ANY \(ARRAY\[`)}`,
      'catalog: every client-writable text has a length ceiling (or a list of values)',
    ),
    none(
      `${CLIENT_WRITABLE} select col from w where w.atttypid in ('numeric'::regtype, 'float4'::regtype, 'float8'::regtype) and not ${checkOnColumn("'NaN'", "'Infinity'")}`,
      'catalog: no client-writable number accepts NaN or Infinity',
    ),
  ];
}

/**
 * The pgTAP suite of an app: SQL text, one transaction, rolled back.
 *
 * @example
 * writeFileSync('supabase/tests/ninefold.test.sql', printPgTap(spec)); // then: supabase test db
 */
export function printPgTap(app: SpecOrModel): string {
  return pgTapSuite(modelOf(app));
}

/** {@link printPgTap} of a resolved app. */
export function pgTapSuite(model: AppModel): string {
  const tests = [...assertions(model), ...catalogAudit()];
  const count = tests.filter((s) => s.startsWith('select ') && !s.startsWith('select set_config')).length;
  return `${[
    sqlComment(
      `pgTAP suite of ${model.purpose.name}, generated by \`ninefold tests\` from its specification.`,
    ),
    '-- Run it with `supabase test db` (as supabase/tests/ninefold.test.sql) after `supabase db push`,',
    '-- or with psql / pg_prove against any database the migration was applied to.',
    'begin;',
    'create extension if not exists pgtap;',
    `select plan(${count});`,
    '',
    ...tests,
    '',
    'select * from finish();',
    'rollback;',
  ].join('\n')}\n`;
}
