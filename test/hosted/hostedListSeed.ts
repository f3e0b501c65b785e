import { entityInfo } from '../../src/backend/embedded/entityInfo.ts';
import type { AppModel } from '../../src/model/appModel.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { type SeedUser, seedRows, seedUsers } from '../enforcement/support/seed.ts';
import { tasksSeed } from '../enforcement/support/tasksSeed.ts';
import { applyHosted } from './hostedDb.ts';
import { bulkRows } from './listQueryPlans.ts';

/** The entity the most list screens show (the one a large table hurts). */
export function busiestEntity(model: AppModel): string | undefined {
  const counts = new Map<string, number>();
  for (const s of model.screens.values())
    if (s.spec.kind === 'list' && s.spec.entity)
      counts.set(s.spec.entity, (counts.get(s.spec.entity) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * A hosted database (auth and storage stand-ins, the supabase-target migration) with one user
 * per role, a few rows of every entity, 100 more people, and the busiest entity copied up to
 * `rows` (`bulkRows`), vacuumed and analysed.
 */
export async function seedHostedLists(
  db: TestDb,
  name: string,
  spec: AppSpec,
  rows: number,
): Promise<{ model: AppModel; users: SeedUser[]; entity: string | undefined }> {
  const model = resolve(spec);
  await applyHosted(db, spec);
  const users = await seedUsers(db, spec, 'plan');
  await seedRows(db, spec, users, name === 'tasks' ? tasksSeed().values : undefined);
  const others = (
    await db.query<{ id: string }>(
      `insert into auth.users (email, raw_user_meta_data)
       select 'other' || g || '@plans.test', jsonb_build_object('name', 'Other ' || g) from generate_series(1, 100) g
       returning id`,
    )
  ).rows.map((r) => r.id);
  const entity = busiestEntity(model);
  const spread = new Map<string, readonly string[]>();
  if (model.profile) spread.set(model.profile, others);
  // The scope rows of relationship roles (organisations): 100 times as many, most rows under
  // others, as in a service with many tenants.
  for (const role of model.roles.values()) {
    const scope = role.through?.kind === 'membership' ? role.through.scope : undefined;
    if (!scope || spread.has(scope) || scope === entity) continue;
    const n = Number(
      (await db.query<{ n: number }>(`select count(*)::int as n from ${entityInfo(model, scope).ref}`))
        .rows[0]?.n,
    );
    spread.set(scope, await bulkRows(db, model, scope, n * 100, spread));
  }
  if (entity) await bulkRows(db, model, entity, rows, spread);
  // As autovacuum leaves a table that has grown by inserts (its insert threshold): the visibility
  // map set, so a count may read an index alone, and the planner's statistics current.
  await db.exec('vacuum analyze');
  return { model, users, entity };
}
