import { profileEntity } from '../../../src/rules/index.ts';
import type { AppSpec, FieldSpec } from '../../../src/spec/types.ts';
import type { Queryable, TestDb } from '../../../src/sql/testing/testDb.ts';
import { createUser } from '../../../src/sql/testing/users.ts';
import { columnSql, tableSql } from './model.ts';

/** A seeded user holding exactly `roles` (the sign-up role removed unless it is the role). */
export interface SeedUser {
  label: string;
  id: string;
  roles: readonly string[];
}

/** A seeded row: its id, owner (the owner field's value, null for owner-less entities), refs. */
export interface SeedRow {
  entity: string;
  id: string;
  owner: string | null;
  state: string | null;
  refs: Record<string, string>;
  label: string;
}

/**
 * An app's own values for a seeded row, over the generic ones: what its rules need to accept the
 * row (a project code in its pattern, a lead who is a member). `parents` are the row's required
 * parents; `owner` the owner field's user (null for owner-less entities). `null` leaves the row out.
 * One instance per seeding.
 */
export type SeedValues = (
  entity: string,
  n: number,
  at: { owner: SeedUser | null; parents: Record<string, SeedRow>; users: readonly SeedUser[] },
) => Record<string, unknown> | null;

export interface Seed {
  users: SeedUser[];
  rows: Record<string, SeedRow[]>;
  /** Every seeded row, parents first. */
  all: SeedRow[];
}

/** One user per role plus a user without roles; emails are unique per call (`tag`). */
export async function seedUsers(db: TestDb, spec: AppSpec, tag = 'seed'): Promise<SeedUser[]> {
  const users: SeedUser[] = [];
  for (const label of [...Object.keys(spec.roles.roles), 'none']) {
    const roles = label === 'none' ? [] : [label];
    const id = await createUser(db, `${tag}.${label}@example.com`, {
      roles,
      meta: { name: `${tag} ${label}` },
    });
    await db.query('delete from app.user_roles where user_id = $1 and not (role = any ($2::text[]))', [
      id,
      roles,
    ]);
    users.push({ label, id, roles });
  }
  // Relations between people (e.g. `manager`): everyone's is the next user, so every such rule has cases.
  const profile = profileEntity(spec);
  if (profile) {
    const userFields = Object.entries(spec.entities[profile]?.fields ?? {}).filter(
      ([, f]) => f.type === 'user',
    );
    for (const [i, u] of users.entries()) {
      const next = users[(i + 1) % users.length];
      for (const [field] of userFields)
        await db.query(
          `update ${tableSql(profile)} set ${columnSql(spec, profile, field)} = $2 where id = $1`,
          [u.id, next?.id],
        );
    }
  }
  return users;
}

function isoDate(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** A valid value for a required (or rule-relevant) field, or undefined to leave it to the default. */
export function sampleValue(f: FieldSpec, n: number): unknown {
  switch (f.type) {
    case 'text':
    case 'longtext':
      return `Seed value number ${n} for the matrix`;
    case 'email':
      return `row${n}@example.com`;
    case 'enum':
      return f.default ?? f.values?.[0];
    case 'number':
    case 'integer':
    case 'money':
      return f.default ?? 1;
    case 'boolean':
      return f.default ?? false;
    case 'date':
      return isoDate(1);
    case 'datetime':
      return new Date().toISOString();
    default:
      return undefined;
  }
}

/** Entities in an order where every required ref's target comes first. */
export function parentFirst(spec: AppSpec): string[] {
  const out: string[] = [];
  const visit = (e: string, path: string[]) => {
    if (out.includes(e) || path.includes(e)) return;
    for (const f of Object.values(spec.entities[e]?.fields ?? {}))
      if (f.type === 'ref' && f.ref && f.required) visit(f.ref, [...path, e]);
    out.push(e);
  };
  for (const e of Object.keys(spec.entities)) visit(e, []);
  return out;
}

/**
 * Seeds rows for every entity as the owner (trusted, policies bypassed): for every user (owner-less
 * entities: once), every parent row of that user, every state, booleans at their defaults and all
 * flipped. Rows are inserted in the initial state and moved to their state afterwards so children
 * can be added first (rules such as "no comments on a closed ticket" hold for the seeds too).
 */
export async function seedRows(
  db: TestDb,
  spec: AppSpec,
  users: readonly SeedUser[],
  own?: SeedValues,
): Promise<Seed> {
  const profile = profileEntity(spec);
  const rows: Record<string, SeedRow[]> = {};
  const all: SeedRow[] = [];
  let n = 0;
  if (profile) {
    rows[profile] = users.map((u) => ({
      entity: profile,
      id: u.id,
      owner: u.id,
      state: null,
      refs: {},
      label: u.label,
    }));
    all.push(...(rows[profile] ?? []));
  }
  const later: { entity: string; id: string; state: string }[] = [];
  for (const entity of parentFirst(spec)) {
    if (entity === profile) continue;
    const e = spec.entities[entity];
    if (!e) continue;
    const st = spec.states[entity];
    const fields = Object.entries(e.fields);
    const ownerField = fields.find(([, f]) => f.owner)?.[0];
    const refs = fields.filter(([, f]) => f.type === 'ref' && f.required);
    // A ref whose target is reachable through another ref (receipt.claim via receipt.line) is derived.
    const derived = new Map<string, { via: string; field: string }>();
    for (const [name, f] of refs)
      for (const [other, g] of refs) {
        const hop = Object.entries(spec.entities[g.ref ?? '']?.fields ?? {}).find(
          ([, h]) => h.type === 'ref' && h.ref === f.ref,
        );
        if (other !== name && hop) derived.set(name, { via: other, field: hop[0] });
      }
    const free = refs.filter(([name]) => !derived.has(name));
    const owners: (SeedUser | null)[] = ownerField ? [...users] : [null];
    const bools = fields.filter(([, f]) => f.type === 'boolean');
    const states = st ? Object.keys(st.states) : [null];
    const list: SeedRow[] = [];
    for (const owner of owners) {
      // Parent combinations: every parent row of the same owner (or every parent row, owner-less).
      let combos: Record<string, SeedRow>[] = [{}];
      for (const [name, f] of free) {
        const candidates = (rows[f.ref ?? ''] ?? []).filter(
          (p) => owner === null || p.owner === null || p.owner === owner.id,
        );
        combos = combos.flatMap((c) => candidates.map((p) => ({ ...c, [name]: p })));
      }
      for (const combo of combos)
        for (const state of states)
          for (const flip of bools.length > 0 ? [false, true] : [false]) {
            n++;
            const values: Record<string, unknown> = {};
            for (const [name, f] of fields) {
              if (f.type === 'boolean') values[name] = flip ? !(f.default ?? false) : (f.default ?? false);
              else if (f.owner && owner) values[name] = owner.id;
              else if (st && name === st.field) values[name] = st.initial;
              else if (f.type === 'ref' && f.required) {
                const d = derived.get(name);
                values[name] = d ? combo[d.via]?.refs[d.field] : combo[name]?.id;
              } else if (f.required && f.type !== 'user' && f.type !== 'ref')
                values[name] = sampleValue(f, n);
            }
            if (e.files) Object.assign(values, { name: `seed-${n}.txt`, size: 4, type: 'text/plain' });
            const extra = own?.(entity, n, { owner, parents: combo, users });
            if (extra === null) continue;
            Object.assign(values, extra);
            const cols = Object.keys(values).map((k) => columnSql(spec, entity, k));
            const params = Object.values(values);
            const r = await db.query<{ id: string }>(
              `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${params.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
              params,
            );
            const id = r.rows[0]?.id as string;
            const refsOut: Record<string, string> = {};
            for (const [name] of refs)
              if (typeof values[name] === 'string') refsOut[name] = values[name] as string;
            const parentLabel = Object.values(combo)
              .map((p) => p.label)
              .join('/');
            const row: SeedRow = {
              entity,
              id,
              owner: owner?.id ?? null,
              state,
              refs: refsOut,
              label: `${entity}[${owner?.label ?? '-'}${state ? ` ${state}` : ''}${flip ? ' flipped' : ''}${parentLabel ? ` of ${parentLabel}` : ''}]`,
            };
            list.push(row);
            if (st && state && state !== st.initial) later.push({ entity, id, state });
          }
    }
    rows[entity] = list;
    all.push(...list);
  }
  for (const { entity, id, state } of later) {
    const st = spec.states[entity];
    if (!st) continue;
    await db.query(`update ${tableSql(entity)} set ${columnSql(spec, entity, st.field)} = $2 where id = $1`, [
      id,
      state,
    ]);
  }
  return { users: [...users], rows, all };
}

/** Runs `fn` inside a savepoint and always rolls it back; returns its result or the error. */
export async function trial<T>(
  q: Queryable,
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  await q.query('savepoint trial');
  try {
    const value = await fn();
    await q.query('rollback to savepoint trial');
    return { ok: true, value };
  } catch (error) {
    await q.query('rollback to savepoint trial');
    return { ok: false, error };
  }
}

/** Thrown to roll an `asUser`/`asOwner` transaction back after collecting its results. */
export class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

/** Runs `fn` in a transaction that is always rolled back, returning what `fn` returned. */
export async function rolledBack<T>(
  run: (fn: (q: Queryable) => Promise<never>) => Promise<unknown>,
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  try {
    await run(async (q) => {
      throw new Rollback(await fn(q));
    });
  } catch (e) {
    if (e instanceof Rollback) return e.value as T;
    throw e;
  }
  throw new Error('unreachable');
}

/**
 * Datetime fields a guard reads (solvedAt in "solvedAt > now - days(7)") get a recent value on every
 * row, as the owner, so time-window guards have passing cases too (the edges are tested on their own).
 */
export async function freshenGuardTimes(db: TestDb, spec: AppSpec): Promise<void> {
  for (const [entity, st] of Object.entries(spec.states))
    for (const [field, f] of Object.entries(spec.entities[entity]?.fields ?? {})) {
      const read = Object.values(st.transitions).some(
        (t) => t.guard && new RegExp(`\\b${field}\\b`).test(t.guard),
      );
      if (f.type === 'datetime' && read)
        await db.query(
          `update ${tableSql(entity)} set ${columnSql(spec, entity, field)} = now() - interval '1 hour'`,
        );
    }
}
