import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
/**
 * What users of every role may do on a generated specification, acted out as clients on a
 * database with the migration applied, against what the rules say (the TypeScript evaluator):
 * - delete: succeeds exactly when the row is readable and some held role's delete rule holds
 *   (evaluated on the rows the user can read, as the policy's subqueries are), else it is refused;
 * - transitions: on a readable row, FORBIDDEN for a role not listed, INVALID_TRANSITION from
 *   another state, the first failing guard's own error, a row rule's error on the row after it, else the status
 *   moves; on a row the user cannot read, the transition never succeeds.
 * Returns the mismatches (empty when the database does what the rules say) and the case count.
 */
import { transitionFunctionName } from '../../src/naming.ts';
import { checkRule, type DataContext, effectiveRoles, evaluateRule } from '../../src/rules/index.ts';
import { computedValues } from '../../src/runtime/computedValues.ts';
import { transitionGuards } from '../../src/spec/transitionGuards.ts';
import type { AppSpec, TransitionSpec } from '../../src/spec/types.ts';
import { constraintCatalogue } from '../../src/sql/constraintNames.ts';
import { quoteIdent } from '../../src/sql/quote.ts';
import { dbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { columnSql, type FieldRow, type Snapshot, snapshot, tableSql } from '../enforcement/support/model.ts';
import { parentFirst, rolledBack, type SeedUser, seedUsers, trial } from '../enforcement/support/seed.ts';
import { dependentsBroken, holdsOn } from './dependentsBroken.ts';
import { recomputedRows, withRow } from './recomputeOracle.ts';
import { oraclePermissions, oracleRoles, transitionRolesRule } from './relationOracle.ts';
import { brokenRules, checkWrites, type WriteOutcome } from './writes.ts';

/**
 * Rows for every entity, inserted as the owner with triggers off: every user × every state, refs
 * to earlier rows. A row a CHECK constraint (a field rule, a row rule on the row alone) refuses is
 * left out: the database holds only rows its constraints accept.
 */
async function seedGenerated(db: TestDb, spec: AppSpec, users: readonly SeedUser[]): Promise<void> {
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const ids: Record<string, string[]> = {};
  let n = 0;
  await db.asOwner(async (q) => {
    await q.query('set local session_replication_role = replica');
    for (const entity of parentFirst(spec)) {
      if (entity === profile) continue;
      const e = spec.entities[entity];
      if (!e) continue;
      const st = spec.states[entity];
      ids[entity] = [];
      for (const user of users)
        for (const state of st ? Object.keys(st.states) : [null]) {
          n += 1;
          const values: Record<string, unknown> = {};
          for (const [name, f] of Object.entries(e.fields)) {
            if (f.owner) values[name] = user.id;
            else if (st && name === st.field) values[name] = state;
            else if (f.type === 'text') values[name] = `t${n}`;
            else if (f.type === 'number') values[name] = [0, 11, null][n % 3];
            else if (f.type === 'boolean') values[name] = n % 2 === 0;
            else if (f.type === 'date') values[name] = n % 2 === 0 ? '2026-01-02' : null;
            else if (f.type === 'datetime') values[name] = n % 2 === 0 ? '2026-11-23T10:00:00Z' : null;
            else if (f.type === 'enum') values[name] = f.values?.[n % (f.values?.length ?? 1)];
            else if (f.type === 'ref' && f.ref) {
              const pool = ids[f.ref] ?? [];
              values[name] = pool.length > 0 && n % 3 !== 0 ? pool[n % pool.length] : null;
            }
          }
          const cols = Object.keys(values).map((k) => columnSql(spec, entity, k));
          await q.query('savepoint seed_row');
          try {
            const r = await q.query<{ id: string }>(
              `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
              Object.values(values),
            );
            await q.query('release savepoint seed_row');
            ids[entity]?.push(r.rows[0]?.id as string);
          } catch (err) {
            await q.query('rollback to savepoint seed_row');
            if (dbError(err).code !== '23514') throw err;
          }
        }
    }
  });
}

/** The snapshot narrowed to the rows one user can read (what a policy's subqueries see). */
function narrowed(snap: Snapshot, visible: ReadonlyMap<string, ReadonlySet<string>>): DataContext {
  return {
    rows: (e) => snap.rows(e).filter((r) => visible.get(e)?.has(String(r.id))),
    get: (e, id) => (visible.get(e)?.has(id) ? snap.get(e, id) : null),
    profile: (id) => snap.profile(id),
    roles: (id) => snap.rolesOf(id),
  };
}

/** A value of each input field that every generated field rule accepts. */
function inputFor(spec: AppSpec, entity: string, t: TransitionSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Optional input is given too: written like required input (its absence is tested in test/enforcement/issue31.test.ts).
  for (const field of [...(t.input ?? []), ...(t.optionalInput ?? [])]) {
    const f = spec.entities[entity]?.fields[field];
    if (f?.type === 'longtext' || f?.type === 'text') out[field] = 'https://example.com/input';
    else if (f?.type === 'date') out[field] = '2026-01-03';
    else if (f?.type === 'number') out[field] = 0;
  }
  return out;
}

const models = new WeakMap<AppSpec, ReturnType<typeof resolve>>();
/** The resolved model of `spec`, once per specification. */
function modelOf(spec: AppSpec): ReturnType<typeof resolve> {
  const m = models.get(spec) ?? resolve(spec);
  models.set(spec, m);
  return m;
}

/**
 * What calling `t` on a readable `row` as `user` does by the rules: 'ok' or the catalogue code, or
 * the codes of every row rule the new row breaks (any one of them may refuse it: the database
 * checks the rules on the row alone as CHECK constraints before its after-trigger checks those
 * reading other rows, not in the spec's order).
 */
function expectedTransition(
  spec: AppSpec,
  entity: string,
  t: TransitionSpec,
  row: FieldRow,
  user: SeedUser,
  data: DataContext,
  input: Record<string, unknown>,
  /** The rows a row rule's `count` sees for this writer (docs/security.md, "Non-interference"). */
  writer: DataContext = data,
): string | string[] {
  const st = spec.states[entity];
  if (!st) throw new Error(entity);
  const roles = effectiveRoles(roleClosureOf(spec), user.roles);
  const rolesRule = transitionRolesRule(spec, t);
  const held = rolesRule
    ? holdsOn(spec, entity, rolesRule, row, user, data)
    : t.roles.some((r) => roles.has(r));
  if (!held) return 'FORBIDDEN';
  if (!t.from.includes(String(row[st.field]))) return 'INVALID_TRANSITION';
  // Every guard in order (`guard`, then each of `guards`): the first that fails is the error.
  for (const g of transitionGuards(t))
    if (!holdsOn(spec, entity, g.rule, row, user, data)) return g.error ?? 'FORBIDDEN';
  const after: FieldRow = { ...row, ...input, [st.field]: t.to };
  for (const [field, text] of Object.entries(t.set ?? {})) {
    if (text === 'now') after[field] = new Date();
    else {
      const typed = checkRule(spec, text, { entity, expect: 'value' });
      if (!typed.ok) throw new Error(`set ${field} = ${text} does not check`);
      after[field] = evaluateRule(typed.typed, {
        row,
        user,
        now: new Date(),
        roleClosure: roleClosureOf(spec),
        data,
      });
    }
  }
  // What the computed-fields trigger sets on the update before any rule reads the row (a row
  // seeded by the owner may hold none yet).
  if (spec.entities[entity] && Object.values(spec.entities[entity].fields).some((f) => f.computed))
    Object.assign(
      after,
      computedValues(modelOf(spec), entity, after, { id: user.id, roles: user.roles }, { data }),
    );
  // Row rules read the table as it is after the write: the row itself counts with its new values.
  const swap = (e: string, r: Record<string, unknown>) => (e === entity && r.id === row.id ? after : r);
  // The row rules count what the writer may read or owns, and the row itself (the validation
  // trigger's count filter); hops read any row.
  const afterData: DataContext = {
    ...data,
    rows: (e) => {
      const counted = writer.rows(e).map((r) => swap(e, r));
      return e === entity && !counted.some((r) => r.id === after.id) ? [...counted, after] : counted;
    },
    get: (e, id) => {
      const r = data.get(e, id);
      return r && swap(e, r);
    },
  };
  const broken = (spec.validation[entity] ?? []).filter(
    (v) =>
      v.kind === 'row' &&
      (!v.when || holdsOn(spec, entity, v.when, after, user, afterData)) &&
      !holdsOn(spec, entity, v.rule, after, user, afterData),
  );
  if (broken.length > 0) return broken.map((v) => v.error);
  // Rows whose computed fields read this one are rewritten, each checked by its own rules.
  const recomputed = recomputedRows(spec, entity, row, after, user, data).flatMap((d) =>
    brokenRules(spec, d.entity, d.row, user, withRow(afterData, d.entity, d.row)),
  );
  if (recomputed.length > 0) return recomputed;
  return dependentsBroken(spec, entity, row, after, user, afterData) ?? 'ok';
}

/** Every row for hops; for counts, the rows `user` may read or owns (the validation trigger's filter). */
function writerCounts(
  spec: AppSpec,
  snap: Snapshot,
  visible: ReadonlyMap<string, ReadonlySet<string>>,
  user: SeedUser,
): DataContext {
  const owned = (e: string, r: FieldRow) =>
    Object.entries(spec.entities[e]?.fields ?? {}).some(([n, f]) => f.owner && r[n] === user.id);
  return {
    ...snap,
    rows: (e) => snap.rows(e).filter((r) => visible.get(e)?.has(String(r.id)) || owned(e, r)),
  };
}

function codeOf(spec: AppSpec, error: unknown): string {
  const e = dbError(error);
  if (e.code === '42501') return '42501';
  // A reference to a row the writer cannot read fails as one to a missing row (emitRowTriggers.ts).
  if (e.code === '23503') return '23503';
  if (e.code === '23514' && e.constraint)
    return constraintCatalogue(spec)[e.constraint]?.code ?? e.constraint;
  // A unique field (a key raises its own code).
  if (e.code === '23505' && e.constraint) return constraintCatalogue(spec)[e.constraint]?.code ?? 'UNIQUE';
  return e.message;
}

/** Whether `code` is raised by a row rule that counts rows (whose result depends on who writes). */
function countsForWriter(spec: AppSpec, code: string): boolean {
  return Object.values(spec.validation).some((rules) =>
    rules.some((r) => r.kind === 'row' && r.error === code && /\bcount\(/.test(`${r.rule} ${r.when ?? ''}`)),
  );
}

/** Runs every delete and every transition for a user of each role (and one without roles). */
export async function checkBehaviour(
  db: TestDb,
  spec: AppSpec,
): Promise<{ cases: number; succeeded: number; mismatches: string[]; writes: WriteOutcome }> {
  const users = await seedUsers(db, spec, 'gen');
  await seedGenerated(db, spec, users);
  const snap = await snapshot(db, spec);
  const mismatches: string[] = [];
  let cases = 0;
  // Operations that succeeded as the rules said they would: the positive side of the check.
  let succeeded = 0;
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const entities = Object.keys(spec.entities).filter((e) => e !== profile);
  const visibleOf = new Map<string, Map<string, Set<string>>>();
  const actors: SeedUser[] = [];
  for (const user of users) {
    const actor: SeedUser = { ...user, roles: snap.rolesOf(user.id) };
    const roles = oracleRoles(spec, actor.roles);
    const visible = new Map<string, Set<string>>();
    for (const entity of Object.keys(spec.entities)) {
      try {
        const r = await db.asUser(actor.id, (q) =>
          q.query<{ id: string }>(`select id::text as id from ${tableSql(entity)}`),
        );
        visible.set(entity, new Set(r.rows.map((x) => x.id)));
      } catch (e) {
        // No role may read the entity: no SELECT grant, nothing is seen.
        if (dbError(e).code !== '42501') throw e;
        visible.set(entity, new Set());
      }
    }
    const data = narrowed(snap, visible);
    visibleOf.set(actor.id, visible);
    actors.push(actor);
    for (const entity of entities) {
      const rows = snap.rows(entity);
      // Delete: the owner's attempt tells whether the delete is valid at all (children, rules),
      // with the actor as `me`: a cascade's `set null` on a child runs its row rules, which may
      // name `me`, as the actor's delete would.
      const valid = await rolledBack(
        (fn) => db.asOwner(fn),
        async (q) => {
          await q.query(`select set_config('request.jwt.claims', $1, true)`, [
            JSON.stringify({ sub: actor.id }),
          ]);
          const out: (true | string)[] = [];
          for (const row of rows) {
            const r = await trial(q, () =>
              q.query(`delete from ${tableSql(entity)} where id = $1`, [row.id]),
            );
            out.push(r.ok || codeOf(spec, r.error));
          }
          return out;
        },
      );
      const got = await rolledBack(
        (fn) => db.asUser(actor.id, fn),
        async (q) => {
          const out: string[] = [];
          for (const row of rows) {
            const r = await trial(q, () =>
              q.query(`delete from ${tableSql(entity)} where id = $1 returning id`, [row.id]),
            );
            out.push(r.ok ? (r.value.rows.length > 0 ? 'ok' : 'hidden') : codeOf(spec, r.error));
          }
          return out;
        },
      );
      rows.forEach((row, i) => {
        cases += 1;
        const readable = visible.get(entity)?.has(String(row.id)) ?? false;
        const allowed = roles.some((role) => {
          const p = oraclePermissions(spec)[role]?.[entity]?.delete;
          return p === true || (typeof p === 'string' && holdsOn(spec, entity, p, row, actor, data));
        });
        const outcome = got[i] ?? 'missing';
        // A row rule that counts rows refused the owner's attempt or the writer's: the owner counts
        // every row, the writer only those they may read (docs/security.md, "Non-interference"),
        // so the rule may hold for one and not the other. Either outcome is right, as long as a
        // done delete was theirs to do.
        const byCount =
          valid[i] === true
            ? outcome !== 'ok' && countsForWriter(spec, outcome)
            : countsForWriter(spec, String(valid[i]));
        if (byCount) {
          if (outcome === 'ok' && !(readable && allowed))
            mismatches.push(`${actor.label} delete ${entity} ${String(row.id)}: expected refused, got ok`);
          return;
        }
        const expected = valid[i] === true && readable && allowed;
        if (expected && outcome === 'ok') succeeded += 1;
        if (expected !== (outcome === 'ok'))
          mismatches.push(
            `${actor.label} delete ${entity} ${String(row.id)}: expected ${expected ? 'ok' : 'refused'}, got ${outcome}`,
          );
        if (!expected && outcome !== 'ok' && outcome !== 'hidden' && outcome !== '42501' && valid[i] === true)
          mismatches.push(`${actor.label} delete ${entity} ${String(row.id)}: refused with ${outcome}`);
      });
      // Transitions, each on every row.
      const st = spec.states[entity];
      if (!st) continue;
      const full: DataContext = snap;
      const called = await rolledBack(
        (fn) => db.asUser(actor.id, fn),
        async (q) => {
          const out: string[] = [];
          for (const row of rows)
            for (const [name, t] of Object.entries(st.transitions)) {
              const r = await trial(q, async () => {
                const res = await q.query<Record<string, unknown>>(
                  `select * from public.${quoteIdent(transitionFunctionName(entity, name))}($1, $2, $3::jsonb)`,
                  [row.id, row.version, JSON.stringify(inputFor(spec, entity, t))],
                );
                const after = res.rows[0] ?? {};
                return String(after[columnSql(spec, entity, st.field).replaceAll('"', '')]);
              });
              out.push(r.ok ? `ok:${r.value}` : codeOf(spec, r.error));
            }
          return out;
        },
      );
      let k = 0;
      for (const row of rows)
        for (const [name, t] of Object.entries(st.transitions)) {
          cases += 1;
          const outcome = called[k++] ?? 'missing';
          const what = `${actor.label} ${entity}.${name} on ${String(row.id)} (${String(row[st.field])})`;
          if (!(visible.get(entity)?.has(String(row.id)) ?? false)) {
            if (outcome.startsWith('ok'))
              mismatches.push(`${what}: the row is not readable, yet it succeeded`);
            continue;
          }
          // The transition function reads as its owner: guards and row rules see every row.
          const expected = expectedTransition(
            spec,
            entity,
            t,
            row,
            actor,
            full,
            inputFor(spec, entity, t),
            writerCounts(spec, snap, visible, actor),
          );
          const want = expected === 'ok' ? [`ok:${t.to}`] : [expected].flat();
          if (!want.includes(outcome))
            mismatches.push(`${what}: expected ${want.join(' or ')}, got ${outcome}`);
          else if (expected === 'ok') succeeded += 1;
        }
    }
  }
  // Creates and updates last: each runs in a rolled-back transaction, so the rows above stay as seeded.
  const writes = await checkWrites(
    db,
    spec,
    actors,
    snap,
    visibleOf,
    (u) => narrowed(snap, visibleOf.get(u.id) ?? new Map()),
    (e) => codeOf(spec, e),
  );
  return { cases, succeeded, mismatches, writes };
}
