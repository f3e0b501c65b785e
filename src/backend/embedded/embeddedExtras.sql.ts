/**
 * SQL the embedded backend adds after the migration (the parts Supabase provides as services):
 * - `ninefold.sessions`: hashes of session tokens (GoTrue's job on Supabase); owner-only schema.
 * The outbox of declared calls is part of the migration itself (src/sql/emitOutbox.ts): both
 * targets queue calls in the transaction of the transition that declares them.
 * Idempotent, like the migration.
 *
 * @example
 * await db.exec(AUTH_STAND_IN_SQL + compileMigration(spec) + embeddedExtrasSql());
 */
export function embeddedExtrasSql(): string {
  return [
    '-- Ninefold embedded extras (sessions).',
    'create schema if not exists ninefold;',
    'revoke all on schema ninefold from public;',
    'create table if not exists ninefold.sessions (',
    '  token_hash text primary key,',
    '  user_id uuid not null references auth.users (id) on delete cascade,',
    '  created_at timestamptz not null default now(),',
    '  expires_at timestamptz not null',
    ');',
    'create index if not exists sessions__user_id__idx on ninefold.sessions (user_id);',
    '',
  ].join('\n');
}
