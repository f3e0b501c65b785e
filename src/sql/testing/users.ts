import { AUTH_STAND_IN_SQL } from '../authStandIn.ts';
import type { TestDb } from './testDb.ts';

/** Applies the Supabase stand-in and a migration, as the owner. */
export async function applyMigration(db: TestDb, migration: string): Promise<void> {
  await db.exec(AUTH_STAND_IN_SQL);
  await db.exec(migration);
}

/**
 * Signs a user up (an `auth.users` row: the migration's trigger adds the profile and sign-up roles)
 * and grants extra roles directly, as the owner. Returns the user id.
 */
export async function createUser(
  db: TestDb,
  email: string,
  opts: { roles?: readonly string[]; meta?: Record<string, unknown> } = {},
): Promise<string> {
  const r = await db.query<{ id: string }>(
    'insert into auth.users (email, raw_user_meta_data) values ($1, $2::jsonb) returning id',
    [email, JSON.stringify(opts.meta ?? {})],
  );
  const id = r.rows[0]?.id;
  if (!id) throw new Error('createUser: no id returned');
  for (const role of opts.roles ?? []) {
    await db.query('insert into app.user_roles (user_id, role) values ($1, $2) on conflict do nothing', [
      id,
      role,
    ]);
  }
  return id;
}
