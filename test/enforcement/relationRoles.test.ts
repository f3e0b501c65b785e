/**
 * Roles held through a relationship (issue 32, item 1), on PGlite and on the PostgreSQL server:
 * team members and owners through a membership entity, project leads through a person field.
 * Each role reads, creates, updates, deletes and runs transitions only where it holds, and the
 * browser's answer (`can`, `availableTransitions`, given the rows) is the server's, row by row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamSpec } from '../../src/check/fixtures/teamSpec.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { DataContext } from '../../src/rules/evaluate.ts';
import { availableTransitions } from '../../src/runtime/availableTransitions.ts';
import { can, updatableFields } from '../../src/runtime/can.ts';
import { expectDbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';

const backends = await enforcementBackends('relationRoles.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const spec = teamSpec();
const model = resolve(spec);
type Row = Record<string, unknown>;

describe.each(backends)('roles held through a relationship on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    db = await backend.open(spec);
    for (const p of ['alice', 'olga', 'lee', 'bob', 'out'])
      ids[p] = await createUser(db, `${p}@example.com`, { meta: { name: p } });
    await db.asOwner(async (q) => {
      const one = async (sql: string, params: unknown[]) =>
        (await q.query<{ id: string }>(`${sql} returning id`, params)).rows[0]?.id as string;
      ids.teamA = await one('insert into public.team (name) values ($1)', ['A']);
      ids.teamB = await one('insert into public.team (name) values ($1)', ['B']);
      const member = 'insert into public.membership (person, team, role) values ($1, $2, $3)';
      await one(member, [ids.alice, ids.teamA, 'member']);
      await one(member, [ids.olga, ids.teamA, 'owner']);
      await one(member, [ids.lee, ids.teamA, 'member']);
      await one(member, [ids.bob, ids.teamB, 'member']);
      ids.projA = await one('insert into public.project (name, team, lead) values ($1, $2, $3)', [
        'PA',
        ids.teamA,
        ids.lee,
      ]);
      ids.projB = await one('insert into public.project (name, team) values ($1, $2)', ['PB', ids.teamB]);
      const task = 'insert into public.task (title, team, project, assignee) values ($1, $2, $3, $4)';
      ids.taskA = await one(task, ['A1', ids.teamA, ids.projA, ids.alice]);
      ids.taskA2 = await one(task, ['A2', ids.teamA, null, ids.lee]);
      ids.taskB = await one(task, ['B1', ids.teamB, ids.projB, ids.bob]);
    });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const as = <T>(who: string, fn: Parameters<TestDb['asUser']>[1]) =>
    db.asUser(ids[who] as string, fn) as Promise<T>;
  /** Refused: by a policy (42501), a reference to a row not visible (23503) or the write check (FORBIDDEN). */
  const refused = (e: { code?: string; message: string }) =>
    expect(
      e.code === '42501' || e.code === '23503' || e.message === 'FORBIDDEN',
      `${e.code} ${e.message}`,
    ).toBe(true);
  const visible = async (who: string, table: string) =>
    (
      await as<{ rows: { title?: string; name?: string }[] }>(who, (q) =>
        q.query(`select * from public.${table}`),
      )
    ).rows
      .map((r) => r.title ?? r.name)
      .sort();

  it('reads: each person sees their teams’ rows only', async () => {
    expect(await visible('alice', 'task')).toEqual(['A1', 'A2']);
    expect(await visible('bob', 'task')).toEqual(['B1']);
    expect(await visible('out', 'task')).toEqual([]);
    expect(await visible('alice', 'project')).toEqual(['PA']);
    expect(await visible('alice', 'team')).toEqual(['A']);
    expect((await visible('out', 'membership')).length).toBe(0);
    const aliceSees = await as<{ rows: unknown[] }>('alice', (q) =>
      q.query('select * from public.membership'),
    );
    expect(aliceSees.rows.length).toBe(3);
  });

  it('creates: a team member adds tasks to their team, never to another', async () => {
    await as('alice', (q) =>
      q.query('insert into public.task (title, team) values ($1, $2)', ['mine', ids.teamA]),
    );
    const e = await expectDbError(() =>
      as('alice', (q) =>
        q.query('insert into public.task (title, team) values ($1, $2)', ['theirs', ids.teamB]),
      ),
    );
    refused(e);
  });

  it('updates: fields as the role on the row allows', async () => {
    const r = await as<{ affectedRows?: number; rows: unknown[] }>('alice', (q) =>
      q.query('update public.task set title = $1 where id = $2 returning id', ['A1!', ids.taskA]),
    );
    expect(r.rows.length).toBe(1);
    // Only the project's lead may reassign; alice is the assignee, not the lead.
    const e = await expectDbError(() =>
      as('alice', (q) => q.query('update public.task set assignee = $1 where id = $2', [ids.lee, ids.taskA])),
    );
    expect(e.message).toMatch(/NOT_WRITABLE|FORBIDDEN|not_writable|42501/i);
    const byLead = await as<{ rows: unknown[] }>('lee', (q) =>
      q.query('update public.task set assignee = $1 where id = $2 returning id', [ids.lee, ids.taskA]),
    );
    expect(byLead.rows.length).toBe(1);
    const none = await as<{ rows: unknown[] }>('bob', (q) =>
      q.query('update public.task set title = $1 where id = $2 returning id', ['x', ids.taskA]),
    );
    expect(none.rows.length).toBe(0);
  });

  it('transitions: by the relationship on the row', async () => {
    await as('lee', (q) => q.query('select public.task_finish($1)', [ids.taskA]));
    const e = await expectDbError(() =>
      as('alice', (q) => q.query('select public.task_reopen($1)', [ids.taskA])),
    );
    expect(e.message).toBe('FORBIDDEN');
    await as('lee', (q) => q.query('select public.task_reopen($1)', [ids.taskA]));
    const notHis = await expectDbError(() =>
      as('bob', (q) => q.query('select public.task_finish($1)', [ids.taskA])),
    );
    expect(notHis.message).toBe('NOT_FOUND');
  });

  it('memberships: an owner adds people to their team; a member cannot', async () => {
    const add = 'insert into public.membership (person, team, role) values ($1, $2, $3)';
    await as('olga', (q) => q.query(add, [ids.out, ids.teamA, 'member']));
    expect(await visible('out', 'task')).toContain('A2');
    const e = await expectDbError(() => as('alice', (q) => q.query(add, [ids.bob, ids.teamA, 'member'])));
    refused(e);
    const olgaIntoB = await expectDbError(() =>
      as('olga', (q) => q.query(add, [ids.olga, ids.teamB, 'owner'])),
    );
    refused(olgaIntoB);
  });

  it('the browser decides as the server, row by row and person by person', async () => {
    const all = await db.asOwner(async (q) => {
      const out: Record<string, Row[]> = {};
      for (const t of ['team', 'membership', 'project', 'task', 'person'])
        out[t] = (await q.query<Row>(`select * from public.${t}`)).rows;
      return out;
    });
    // Rows as the runtime holds them: field names (the columns are the same words here).
    const data: DataContext = {
      rows: (e) => all[e] ?? [],
      get: (e, id) => (all[e] ?? []).find((r) => r.id === id) ?? null,
      profile: (id) => (all.person ?? []).find((r) => r.id === id) ?? null,
    };
    let compared = 0;
    for (const who of ['alice', 'olga', 'lee', 'bob', 'out']) {
      const user = { id: ids[who] as string, roles: ['member'] };
      const seen = new Set(
        (await as<{ rows: Row[] }>(who, (q) => q.query('select id from public.task'))).rows.map((r) => r.id),
      );
      for (const row of all.task ?? []) {
        const browser = can(model, user, 'task', 'read', row, data).ok;
        expect(browser, `${who} reads ${row.title}`).toBe(seen.has(row.id));
        const fields = [...updatableFields(model, user, 'task', row, data)].sort();
        if (!seen.has(row.id)) continue;
        // The server's answer: which fields an update may change (each tried and rolled back).
        const server: string[] = [];
        for (const f of ['assignee', 'title']) {
          const value = f === 'title' ? 'probe' : ids.alice;
          const ok = await db
            .asUser(ids[who] as string, async (q) => {
              const r = await q.query(`update public.task set ${f} = $1 where id = $2 returning id`, [
                value,
                row.id,
              ]);
              throw Object.assign(new Error('rollback'), { rowsSeen: r.rows.length });
            })
            .catch((e: { rowsSeen?: number }) => e.rowsSeen === 1);
          if (ok) server.push(f);
        }
        expect(fields, `${who} updates ${row.title}`).toEqual(server);
        const offered = availableTransitions(model, user, 'task', row, {}, data);
        for (const t of model.tables.get('task')?.transitions ?? []) {
          if (!t.from.includes(String(row.status))) continue;
          const outcome = await db
            .asUser(ids[who] as string, async (q) => {
              await q.query(`select public.${t.functionName}($1)`, [row.id]);
              throw new Error('ran');
            })
            .catch((e: Error) => e.message);
          const o = offered.find((x) => x.name === t.name);
          const browser = !o ? 'FORBIDDEN' : o.allowed ? 'ran' : 'guard';
          expect(browser, `${who} ${t.name} ${row.title}`).toBe(
            outcome === 'ran' || outcome === 'FORBIDDEN' ? outcome : 'guard',
          );
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(4);
  });
});
