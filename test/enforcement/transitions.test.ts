/**
 * Transitions as a client: every transition × from-state × role (own row and the row of the user
 * whose manager/colleague the actor is), with the outcome the spec predicts (NOT_FOUND for an
 * unreadable row, FORBIDDEN for a role not listed, INVALID_TRANSITION from another state, the guard's
 * error, INPUT_REQUIRED), set and input fields applied, one history row with actor/from/to/input;
 * history is append-only for everyone.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { transitionFunctionName } from '../../src/naming.ts';
import { checkRule, effectiveRoles, evaluateRule, holds, normaliseValue } from '../../src/rules/index.ts';
import type { AppSpec, TransitionSpec } from '../../src/spec/types.ts';
import { constraintCatalogue } from '../../src/sql/constraintNames.ts';
import { historyTable } from '../../src/sql/emitHistory.ts';
import { quoteIdent } from '../../src/sql/quote.ts';
import { tableOf } from '../../src/sql/specModel.ts';
import { dbError, expectDbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { enforcementBackends } from './support/backends.ts';
import {
  APPS,
  caseCounter,
  type FieldRow,
  rule,
  type Snapshot,
  snapshot,
  specAllows,
  toFieldRow,
} from './support/model.ts';
import {
  freshenGuardTimes,
  rolledBack,
  type Seed,
  type SeedUser,
  sampleValue,
  seedRows,
  seedUsers,
  trial,
} from './support/seed.ts';

const backends = await enforcementBackends('transitions.test');
const counter = caseCounter();
afterAll(async () => {
  counter.print('transitions');
  for (const b of backends) await b.closeAll();
});

const statefulApps = APPS.filter((a) => Object.keys(a.spec.states).length > 0);

/** The input a caller gives for a transition's input fields: valid values of each field's type. */
function inputFor(
  spec: AppSpec,
  entity: string,
  t: TransitionSpec,
  users: readonly SeedUser[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of t.input ?? []) {
    const f = spec.entities[entity]?.fields[field];
    if (!f) throw new Error(`${entity}.${field}`);
    if (f.type === 'user')
      out[field] = users[users.length - 2]?.id; // the most privileged role (last spec role)
    else if (f.type === 'datetime') out[field] = new Date(Date.now() + 3_600_000).toISOString();
    else if (f.type === 'text' || f.type === 'longtext')
      out[field] = `Input for ${field}: it's "quoted" \\ fine`;
    else out[field] = sampleValue(f, 0);
  }
  return out;
}

/** What the spec says calling `t` on `row` as `user` does: 'ok' or the catalogue code raised. */
function expectedOutcome(
  spec: AppSpec,
  entity: string,
  name: string,
  t: TransitionSpec,
  row: FieldRow,
  user: { id: string; roles: readonly string[] } | null,
  data: Snapshot,
  input: Record<string, unknown>,
): string {
  const st = spec.states[entity];
  if (!st) throw new Error(entity);
  if (!user) return '42501';
  if (!specAllows(spec, entity, 'read', row, user, data)) return 'NOT_FOUND';
  const roles = effectiveRoles(roleClosureOf(spec), user.roles);
  if (!t.roles.some((r) => roles.has(r))) return 'FORBIDDEN';
  if (!t.from.includes(String(row[st.field]))) return 'INVALID_TRANSITION';
  if (
    t.guard &&
    !holds(rule(spec, entity, t.guard), {
      row,
      user,
      now: new Date(),
      roleClosure: roleClosureOf(spec),
      data,
    })
  )
    return t.guardError ?? 'FORBIDDEN';
  void name;
  // The row after the transition must still pass the entity's row rules (e.g. nobody pays their own claim).
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
  for (const v of spec.validation[entity] ?? []) {
    if (v.kind !== 'row') continue;
    const ctx = { row: after, user, now: new Date(), roleClosure: roleClosureOf(spec), data };
    if (v.when && !holds(rule(spec, entity, v.when), ctx)) continue;
    if (!holds(rule(spec, entity, v.rule), ctx)) return v.error;
  }
  return 'ok';
}

/** The catalogue code of a database error: raised codes as they are, CHECK violations by constraint name. */
function codeOf(spec: AppSpec, error: unknown): string {
  const e = dbError(error);
  if (e.code === '42501') return '42501';
  if (e.code === '23514' && e.constraint)
    return constraintCatalogue(spec)[e.constraint]?.code ?? e.constraint;
  return e.message;
}

function callSql(entity: string, name: string): string {
  return `select * from public.${quoteIdent(transitionFunctionName(entity, name))}($1, $2, $3::jsonb)`;
}

function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([x], [y]) => x.localeCompare(y))
            .map(([k, x]) => [k, norm(x)]),
        )
      : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

function same(a: unknown, b: unknown, type: string | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (type === 'datetime' || type === 'date')
    return (
      Date.parse(String(a instanceof Date ? a.toISOString() : a)) ===
      Date.parse(String(b instanceof Date ? b.toISOString() : b))
    );
  if (type === 'number' || type === 'integer' || type === 'money') return Number(a) === Number(b);
  return String(a) === String(b);
}

describe.each(backends)('transitions on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  for (const app of statefulApps) {
    describe(app.name, () => {
      const spec = app.spec;
      let db: TestDb;
      let users: SeedUser[];
      let seed: Seed;
      let snap: Snapshot;

      beforeAll(async () => {
        db = await backend.open(spec);
        users = await seedUsers(db, spec);
        seed = await seedRows(db, spec, users);
        await freshenGuardTimes(db, spec);
        snap = await snapshot(db, spec);
      }, 120_000);
      afterAll(async () => {
        if (db) await backend.release(db);
      });

      for (const [entity, st] of Object.entries(spec.states)) {
        it(`${entity}: every transition × from-state × role, with set fields, inputs and history`, async () => {
          const mismatches: string[] = [];
          const succeeded = new Set<string>();
          let cases = 0;
          const h = historyTable(tableOf(resolve(spec), entity));
          const fields = spec.entities[entity]?.fields ?? {};
          for (const [i, actor] of [...users.entries(), [-1, null] as const]) {
            const user = actor ? { id: actor.id, roles: snap.rolesOf(actor.id) } : null;
            // Own rows, and rows of the previous user (the one the actor manages, in the seed).
            const owners = actor
              ? [actor.id, users[(i - 1 + users.length) % users.length]?.id]
              : [users[0]?.id];
            const rows = (seed.rows[entity] ?? []).filter((r) => owners.includes(r.owner ?? ''));
            const results = await rolledBack(
              (fn) => db.asUser(actor?.id ?? null, fn),
              async (q) => {
                const out: string[] = [];
                for (const r of rows)
                  for (const [name, t] of Object.entries(st.transitions)) {
                    const old = snap.get(entity, r.id) as FieldRow;
                    const input = inputFor(spec, entity, t, users);
                    const expected = expectedOutcome(spec, entity, name, t, old, user, snap, input);
                    const what = `${actor?.label ?? 'anon'} ${name} on ${r.label}`;
                    cases++;
                    const res = await trial(q, async () => {
                      const called = await q.query<Record<string, unknown>>(callSql(entity, name), [
                        r.id,
                        old.version,
                        JSON.stringify(input),
                      ]);
                      if (expected !== 'ok' || !user) return 'ok';
                      const after = toFieldRow(spec, entity, called.rows[0] ?? {});
                      if (after[st.field] !== t.to)
                        out.push(`${what}: status ${String(after[st.field])}, expected ${t.to}`);
                      if (Number(after.version) !== Number(old.version) + 1)
                        out.push(`${what}: version not bumped`);
                      for (const [field, value] of Object.entries(input))
                        if (!same(after[field], value, fields[field]?.type))
                          out.push(`${what}: input ${field} not applied`);
                      for (const [field, text] of Object.entries(t.set ?? {})) {
                        const got = after[field];
                        const type = fields[field]?.type;
                        if (text === 'now') {
                          const ms = got instanceof Date ? got.getTime() : Date.parse(String(got));
                          if (!(Math.abs(ms - Date.now()) < 120_000))
                            out.push(`${what}: ${field} is not now (${String(got)})`);
                          continue;
                        }
                        const typed = checkRule(spec, text, { entity, expect: 'value' });
                        if (!typed.ok) throw new Error(`set ${field} = ${text} does not check`);
                        const want = evaluateRule(typed.typed, {
                          row: old,
                          user,
                          now: new Date(),
                          roleClosure: roleClosureOf(spec),
                          data: snap,
                        });
                        const have = normaliseValue(got, typed.typed.type);
                        if (!same(have, want, type))
                          out.push(
                            `${what}: set ${field} = ${text}: got ${String(have)}, expected ${String(want)}`,
                          );
                      }
                      // One history row: actor, from, to and exactly the input given (read as the owner).
                      await q.query('reset role');
                      const hist = await q.query<{
                        actor: string;
                        from_state: string;
                        to_state: string;
                        input: unknown;
                      }>(
                        `select actor, from_state, to_state, input from ${h} where row_id = $1 and transition = $2`,
                        [r.id, name],
                      );
                      await q.query('set local role authenticated');
                      const wantInput = Object.fromEntries(Object.entries(input));
                      if (
                        hist.rows.length !== 1 ||
                        hist.rows[0]?.actor !== user.id ||
                        hist.rows[0]?.from_state !== old[st.field] ||
                        hist.rows[0]?.to_state !== t.to ||
                        !sameJson(hist.rows[0]?.input, wantInput)
                      )
                        out.push(`${what}: history ${JSON.stringify(hist.rows)}`);
                      // Inputs are required: without them (or empty) the same call is refused.
                      for (const field of t.input ?? []) {
                        await q.query('rollback to savepoint trial');
                        await q.query('savepoint trial');
                        const e = await expectDbError(() =>
                          q.query(callSql(entity, name), [
                            r.id,
                            old.version,
                            JSON.stringify({ ...input, [field]: '' }),
                          ]),
                        );
                        cases++;
                        const detail = JSON.parse(e.detail ?? '{}') as Record<string, unknown>;
                        if (e.message !== 'INPUT_REQUIRED' || detail.field !== field)
                          out.push(`${what}: without ${field}: ${e.message} ${e.detail}`);
                      }
                      return 'ok';
                    });
                    const got = res.ok ? 'ok' : codeOf(spec, res.error);
                    if (got !== expected) out.push(`${what}: expected ${expected}, got ${got}`);
                    if (got === 'ok') out.push(`ok ${name}`);
                  }
                return out;
              },
            );
            mismatches.push(...results.filter((x) => !x.startsWith('ok ')));
            for (const x of results) if (x.startsWith('ok ')) succeeded.add(x.slice(3));
          }
          counter.add(`${app.name} on ${backend.name}`, cases);
          expect(mismatches).toEqual([]);
          // Positive control: every transition succeeded for someone in the matrix.
          expect([...succeeded].sort()).toEqual(Object.keys(st.transitions).sort());
        });

        it(`${entity}: history is append-only for every role and the owner`, async () => {
          const r = (seed.rows[entity] ?? []).find((x) => x.state === st.initial);
          if (!r) throw new Error('no row in the initial state');
          // A history row exists (written by a transition run as the owner of the row's app role).
          await db.query(
            `insert into ${historyTable(tableOf(resolve(spec), entity))} (row_id, transition, from_state, to_state, actor) values ($1, 'seed', $2, $2, $3)`,
            [r.id, st.initial, r.owner],
          );
          let cases = 0;
          for (const actor of [...users, null]) {
            for (const sql of [
              `update ${historyTable(tableOf(resolve(spec), entity))} set to_state = 'hacked'`,
              `delete from ${historyTable(tableOf(resolve(spec), entity))}`,
              `insert into ${historyTable(tableOf(resolve(spec), entity))} (row_id, transition, from_state, to_state) values ('${r.id}', 'forged', 'x', 'y')`,
              `truncate ${historyTable(tableOf(resolve(spec), entity))}`,
            ]) {
              const e = await expectDbError(() => db.asUser(actor?.id ?? null, (q) => q.query(sql)));
              expect(e.code, `${actor?.label ?? 'anon'}: ${sql}`).toBe('42501');
              cases++;
            }
          }
          for (const sql of [
            `update ${historyTable(tableOf(resolve(spec), entity))} set to_state = 'hacked'`,
            `delete from ${historyTable(tableOf(resolve(spec), entity))}`,
          ]) {
            const e = await expectDbError(() => db.query(sql));
            expect(e.message).toBe('APPEND_ONLY');
            cases++;
          }
          // Positive control: the row is still there, unchanged, and its row's owner can read it.
          const left = await db.query<{ to_state: string }>(
            `select to_state from ${historyTable(tableOf(resolve(spec), entity))} where row_id = $1`,
            [r.id],
          );
          expect(left.rows).toEqual([{ to_state: st.initial }]);
          counter.add(`${app.name} on ${backend.name}`, cases);
        });
      }

      if (app.name === 'expenses') {
        it('claim.submit: a line above the receipt threshold needs a receipt once the claim is submitted', async () => {
          const above = spec.constants.receiptRequiredAbove?.value;
          const employee = users.find((u) => u.label === 'employee');
          const draft = (seed.rows.claim ?? []).find((r) => r.owner === employee?.id && r.state === 'draft');
          if (typeof above !== 'number' || !employee || !draft) throw new Error('expenses spec changed');
          const line = await db.asUser(employee.id, (q) =>
            q.query<{ id: string }>(
              `insert into public.line (claim, date, category, description, amount, currency)
               values ($1, current_date, 'meals', 'Team dinner', $2, 'EUR') returning id`,
              [draft.id, above + 10],
            ),
          );
          expect(line.rows).toHaveLength(1);
          const submit = () =>
            db.asUser(employee.id, (q) => q.query('select status from public.claim_submit($1)', [draft.id]));
          const e = await expectDbError(submit);
          expect(e.message).toBe('RECEIPT_REQUIRED');
          // Positive control: with a receipt the same claim is submitted.
          await db.asUser(employee.id, (q) =>
            q.query(
              `insert into public.receipt (claim, line, name, size_bytes, mime_type) values ($1, $2, 'r.pdf', 0, 'application/pdf')`,
              [draft.id, line.rows[0]?.id],
            ),
          );
          expect((await submit()).rows).toEqual([{ status: 'submitted' }]);
          counter.add(`${app.name} on ${backend.name}`, 2);
        });
      }

      if (app.name === 'helpdesk') {
        it('ticket.reopen: the guard window moves with solvedAt; assignee guards', async () => {
          const t = spec.states.ticket?.transitions.reopen;
          const windowDays = spec.constants.reopenWindowDays?.value;
          if (!t || typeof windowDays !== 'number') throw new Error('helpdesk spec changed');
          const customer = users.find((u) => u.label === 'customer');
          const agent = users.find((u) => u.label === 'agent');
          const admin = users.find((u) => u.label === 'admin');
          const solved = (seed.rows.ticket ?? []).find(
            (r) => r.owner === customer?.id && r.state === 'solved',
          );
          const open = (seed.rows.ticket ?? []).find((r) => r.owner === customer?.id && r.state === 'open');
          if (!customer || !agent || !admin || !solved || !open) throw new Error('seed');
          const reopen = (uid: string) =>
            db.asUser(uid, (q) =>
              q.query<{ status: string; reopen_count: number }>(
                `select status, reopen_count from public.ticket_reopen($1, null, '{"reopenReason":"Still broken"}')`,
                [solved.id],
              ),
            );
          const moveSolvedAt = (days: number) =>
            db.query(
              `update public.ticket set status = 'solved', solved_at = now() - make_interval(days => $2) where id = $1`,
              [solved.id, days],
            );
          await moveSolvedAt(windowDays + 1);
          expect((await expectDbError(() => reopen(customer.id))).message).toBe(t.guardError);
          await moveSolvedAt(windowDays - 1);
          expect((await reopen(customer.id)).rows).toEqual([{ status: 'open', reopen_count: 1 }]);
          await moveSolvedAt(windowDays + 1);
          expect((await expectDbError(() => reopen(agent.id))).message).toBe(t.guardError);
          // ask_customer: only the assignee (or an admin)
          await db.query('update public.ticket set assignee = $2 where id = $1', [open.id, admin.id]);
          const ask = (uid: string) =>
            db.asUser(uid, (q) => q.query('select public.ticket_ask_customer($1)', [open.id]));
          expect((await expectDbError(() => ask(agent.id))).message).toBe('NOT_ASSIGNEE');
          await db.query('update public.ticket set assignee = $2 where id = $1', [open.id, agent.id]);
          await ask(agent.id);
          counter.add(`${app.name} on ${backend.name}`, 5);
        });
      }
    });
  }
});
