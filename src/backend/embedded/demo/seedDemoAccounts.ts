import type { Transaction } from '@electric-sql/pglite';
import { modelOf, type SpecOrModel } from '../../../model/modelOf.ts';
import { hashPassword } from '../passwords.ts';
import { demoAccountPeople } from './demoAccountPeople.ts';
import { demoAccounts } from './demoAccounts.ts';
import type { DemoPerson } from './demoPlan.ts';
import { setDemoProfiles } from './seedDemo.ts';

/**
 * Creates the demo accounts as the owner (setup, not a user action): auth users with hashed
 * passwords; the migration's trigger makes their profiles; each then holds exactly its role.
 * The people they need for a walkable demo (a reference app's reporting lines: the director
 * the demo manager reports to) come too, without a password, and the profiles are set once all
 * exist (`demoAccountPeople`). Idempotent. Returns the user ids by key (the role, for accounts).
 */
export async function seedDemoAccounts(
  tx: Transaction,
  app: SpecOrModel,
  given?: readonly DemoPerson[],
): Promise<Record<string, string>> {
  const model = modelOf(app);
  const ids: Record<string, string> = {};
  const people = given ?? demoAccountPeople(model, demoAccounts(model));
  for (const p of people) {
    const r = await tx.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data, email_confirmed_at)
       values ($1, $2, $3, now())
       on conflict (email) do update set encrypted_password = excluded.encrypted_password
       returning id`,
      [p.email, p.password ? await hashPassword(p.password) : null, JSON.stringify({ name: p.name })],
    );
    const id = r.rows[0]?.id;
    if (!id) continue;
    ids[p.key] = id;
    await tx.query('delete from app.user_roles where user_id = $1 and not (role = any($2))', [id, p.roles]);
    for (const role of p.roles)
      await tx.query('insert into app.user_roles (user_id, role) values ($1, $2) on conflict do nothing', [
        id,
        role,
      ]);
  }
  await setDemoProfiles(tx, model, people, ids);
  return ids;
}
