import type { Transaction } from '@electric-sql/pglite';
import type { AppModel } from '../../../model/appModel.ts';
import { quoteIdent } from '../../../sql/quote.ts';
import { entityInfo, historyRef } from '../entityInfo.ts';
import { hashPassword } from '../passwords.ts';
import type { DemoPerson, DemoPlan, DemoRef } from './demoPlan.ts';

function isRef(v: unknown): v is DemoRef {
  return typeof v === 'object' && v !== null && '$ref' in v;
}

/** Column and value for a field; file meta fields map to their own columns. */
function columnOf(model: AppModel, entity: string, field: string): string {
  const c = entityInfo(model, entity).byField.get(field);
  if (!c) throw new Error(`demo data: ${entity}.${field} is not a field`);
  return c.column;
}

async function updateTriggers(tx: Transaction, table: string, all = false): Promise<string[]> {
  const r = await tx.query<{ tgname: string }>(
    `select tgname from pg_trigger where tgrelid = $1::regclass and not tgisinternal and ($2 or tgname like '%on_update')`,
    [`public.${table}`, all],
  );
  return r.rows.map((t) => t.tgname);
}

/** Empties every table the app and its users live in (auth users cascade to roles, sessions, outbox). */
export async function wipeAppData(tx: Transaction, model: AppModel): Promise<void> {
  const tables = [...model.tables.values()];
  const histories = tables.filter((t) => t.historyTable).map(historyRef);
  // History is append-only by trigger, but truncate is not a row delete: resetting the demo is setup.
  await tx.exec(`truncate ${[...tables.map((t) => t.ref), ...histories, 'auth.users'].join(', ')} cascade`);
}

/**
 * Sets the demo people's profile fields (references resolved through `ids`, people included) as
 * the owner, after every person exists: a manager may be seeded after those who report to them.
 *
 * @example
 * await setDemoProfiles(tx, model, plan.people, { employee: 'u1', manager: 'u2' });
 */
export async function setDemoProfiles(
  tx: Transaction,
  model: AppModel,
  people: readonly DemoPerson[],
  ids: Readonly<Record<string, string>>,
): Promise<void> {
  const profile = model.profile;
  if (!profile) return;
  const table = entityInfo(model, profile);
  const resolve = (v: unknown): unknown => {
    if (!isRef(v)) return v instanceof Date ? v.toISOString() : v;
    const id = ids[v.$ref];
    if (!id) throw new Error(`demo data: unknown key ${v.$ref}`);
    return id;
  };
  for (const p of people) {
    const entries = Object.entries(p.profile ?? {});
    if (entries.length === 0 || !ids[p.key]) continue;
    const sets = entries.map(([f], i) => `${quoteIdent(columnOf(model, profile, f))} = $${i + 2}`);
    await tx.query(`update ${table.ref} set ${sets.join(', ')} where id = $1`, [
      ids[p.key],
      ...entries.map(([, v]) => resolve(v)),
    ]);
  }
}

/**
 * Inserts a demo plan as the database owner (setup, not a user action) with every constraint and
 * validation trigger on: people first (the migration's trigger makes their profiles), then rows,
 * then final values and back-dated timestamps, then history.
 *
 * @example
 * await backend.asOwner((tx) => seedDemo(tx, resolve(spec), helpdeskDemo(new Date())));
 */
export async function seedDemo(
  tx: Transaction,
  model: AppModel,
  plan: DemoPlan,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const resolve = (v: unknown): unknown => {
    if (!isRef(v)) return v instanceof Date ? v.toISOString() : v;
    const id = ids[v.$ref];
    if (!id) throw new Error(`demo data: unknown key ${v.$ref}`);
    return id;
  };
  const hashes = new Map<string, string>();
  for (const p of plan.people) {
    let hash: string | null = null;
    if (p.password) {
      hash = hashes.get(p.password) ?? (await hashPassword(p.password));
      hashes.set(p.password, hash);
    }
    const r = await tx.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data, email_confirmed_at)
       values ($1, $2, $3, now()) returning id`,
      [p.email, hash, JSON.stringify({ name: p.name })],
    );
    const id = r.rows[0]?.id;
    if (!id) throw new Error('demo data: user not created');
    ids[p.key] = id;
    await tx.query('delete from app.user_roles where user_id = $1', [id]);
    for (const role of p.roles)
      await tx.query('insert into app.user_roles (user_id, role) values ($1, $2)', [id, role]);
  }
  await setDemoProfiles(tx, model, plan.people, ids);

  for (const row of plan.rows) {
    const info = entityInfo(model, row.entity);
    const entries = Object.entries(row.values).filter(([, v]) => v !== undefined);
    const columns = entries.map(([f]) => quoteIdent(columnOf(model, row.entity, f)));
    const params = entries.map(([, v]) => resolve(v));
    if (row.file) {
      columns.push('name', 'mime_type', 'size_bytes', 'content');
      params.push(row.file.name, row.file.type, row.file.bytes.byteLength, row.file.bytes);
    }
    const placeholders = params.map((_, i) => `$${i + 1}`).join(', ');
    const r = await tx.query<{ id: string }>(
      `insert into ${info.ref} (${columns.join(', ')}) values (${placeholders}) returning id`,
      params,
    );
    const id = r.rows[0]?.id;
    if (!id) throw new Error(`demo data: ${row.entity} not created`);
    ids[row.key] = id;
  }

  // Final values and believable timestamps; the bookkeeping trigger would stamp "now" instead.
  const byEntity = new Map<string, typeof plan.rows>();
  for (const row of plan.rows) byEntity.set(row.entity, [...(byEntity.get(row.entity) ?? []), row]);
  // Two passes: every timestamp first, then final values (children validate against open parents).
  for (const pass of ['timestamps', 'final'] as const) {
    for (const [entity, rows] of byEntity) {
      const info = entityInfo(model, entity);
      const todo = pass === 'timestamps' ? rows : rows.filter((row) => row.after);
      if (todo.length === 0) continue;
      // Backdated values were judged when the row was made: no rule (nor history) sees them now.
      const backdating = pass === 'timestamps' && todo.some((row) => row.backdated);
      const triggers = await updateTriggers(tx, info.table, backdating);
      for (const t of triggers) await tx.exec(`alter table ${info.ref} disable trigger ${quoteIdent(t)}`);
      for (const row of todo) {
        const entries = Object.entries((pass === 'final' ? row.after : row.backdated) ?? {});
        const sets = [
          'created_at = $2',
          'updated_at = $3',
          ...entries.map(([f], i) => `${quoteIdent(columnOf(model, entity, f))} = $${i + 4}`),
        ];
        await tx.query(`update ${info.ref} set ${sets.join(', ')} where id = $1`, [
          ids[row.key],
          row.createdAt.toISOString(),
          (row.updatedAt ?? row.createdAt).toISOString(),
          ...entries.map(([, v]) => resolve(v)),
        ]);
      }
      for (const t of triggers) await tx.exec(`alter table ${info.ref} enable trigger ${quoteIdent(t)}`);
    }
  }

  for (const h of plan.history) {
    await tx.query(
      `insert into ${historyRef(entityInfo(model, h.entity))} (row_id, transition, from_state, to_state, actor, at, input) values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        ids[h.row],
        h.transition,
        h.from,
        h.to,
        h.actor === null ? null : ids[h.actor],
        h.at.toISOString(),
        JSON.stringify(h.input ?? {}),
      ],
    );
  }
  return ids;
}
