/**
 * A relationship role tested on a counted row (issue 32, item 1), on examples/tasks: a person is
 * read by those who share an organisation with them,
 * `id = me or count(membership where person = this.id and me is orgMember) >= 1`. On PGlite and on
 * the PostgreSQL server: a person of organisation A does not read a person only in organisation B
 * (name and e-mail), reads those of A, and the browser's answer (`can`, given the rows) is the
 * server's, person by person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tasks from '../../examples/tasks/spec.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { DataContext } from '../../src/rules/evaluate.ts';
import { can } from '../../src/runtime/can.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';

const backends = await enforcementBackends('sharedOrganisation.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const spec = tasks as AppSpec;
const model = resolve(spec);
type Row = Record<string, unknown>;
const PEOPLE = ['ann', 'amy', 'bea', 'both', 'none'] as const;

describe.each(backends)('a person is read by those who share an organisation ($name)', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    db = await backend.open(spec);
    for (const p of PEOPLE) ids[p] = await createUser(db, `${p}@example.com`, { meta: { name: p } });
    await db.asOwner(async (q) => {
      const org = async (name: string, owner: string) =>
        (
          await q.query<{ id: string }>(
            'insert into public.organisation (name, owner) values ($1, $2) returning id',
            [name, owner],
          )
        ).rows[0]?.id as string;
      ids.orgA = await org('A', ids.ann as string);
      ids.orgB = await org('B', ids.bea as string);
      const member = 'insert into public.membership (organisation, person, role) values ($1, $2, $3)';
      await q.query(member, [ids.orgA, ids.ann, 'owner']);
      await q.query(member, [ids.orgA, ids.amy, 'member']);
      await q.query(member, [ids.orgB, ids.bea, 'owner']);
      await q.query(member, [ids.orgA, ids.both, 'admin']);
      await q.query(member, [ids.orgB, ids.both, 'member']);
    });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const readable = async (who: string) =>
    (
      await db.asUser(ids[who] as string, (q) =>
        q.query<{ name: string; email: string }>('select name, email from public.person order by name'),
      )
    ).rows;

  it('a person of A does not read a person only in B (name nor e-mail), and reads those of A', async () => {
    expect((await readable('amy')).map((r) => r.name)).toEqual(['amy', 'ann', 'both']);
    expect((await readable('amy')).some((r) => r.email === 'bea@example.com')).toBe(false);
    const byId = await db.asUser(ids.amy as string, (q) =>
      q.query('select name from public.person where id = $1', [ids.bea]),
    );
    expect(byId.rows).toEqual([]);
    expect((await readable('bea')).map((r) => r.name)).toEqual(['bea', 'both']);
    expect((await readable('both')).map((r) => r.name)).toEqual(['amy', 'ann', 'bea', 'both']);
    expect((await readable('none')).map((r) => r.name)).toEqual(['none']);
  });

  it('the browser decides as the server, person by person', async () => {
    const all = await db.asOwner(async (q) => {
      const out: Record<string, Row[]> = {};
      for (const t of ['organisation', 'membership', 'person'])
        out[t] = (await q.query<Row>(`select * from public.${t}`)).rows;
      return out;
    });
    const data: DataContext = {
      rows: (e) => all[e] ?? [],
      get: (e, id) => (all[e] ?? []).find((r) => r.id === id) ?? null,
      profile: (id) => (all.person ?? []).find((r) => r.id === id) ?? null,
    };
    let compared = 0;
    for (const who of PEOPLE) {
      const user = { id: ids[who] as string, roles: ['member'] };
      const seen = new Set((await readable(who)).map((r) => r.name));
      for (const row of all.person ?? []) {
        expect(can(model, user, 'person', 'read', row, data).ok, `${who} reads ${row.name}`).toBe(
          seen.has(row.name as string),
        );
        compared++;
      }
    }
    expect(compared).toBe(PEOPLE.length * PEOPLE.length);
  });
});
