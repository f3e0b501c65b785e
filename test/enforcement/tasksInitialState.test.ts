/**
 * Team Tasks' first states chosen by rules that read computed fields (issue 32, items 4 and 5), on
 * PGlite and on the PostgreSQL server: a task's organisation is computed from its project, and a
 * task whose due date has passed in that organisation's time zone starts overdue. The insert
 * trigger chooses the state before the computed-fields trigger runs, so the state function works
 * the computed fields out itself; the browser's preview, which has no computed reference to hop
 * through, says the state is chosen on saving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import teamTasks from '../../examples/tasks/spec.ts';
import { resolve } from '../../src/model/resolve.ts';
import { initialStateHops } from '../../src/runtime/initialState.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';

const spec = teamTasks as AppSpec;
const backends = await enforcementBackends('tasksInitialState.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

/** The calendar day `days` from today in `timeZone`, as `YYYY-MM-DD`. */
function localDay(timeZone: string, days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe.each(backends)(
  'Team Tasks: a task starts overdue by its computed organisation on $name',
  (backend) => {
    if (backend.skip) {
      it.skip(`skipped: ${backend.skip}`, () => {});
      return;
    }
    let db: TestDb;
    let member: string;
    const projects = new Map<string, { project: string; organisation: string }>();
    beforeAll(async () => {
      db = await backend.open(spec);
      member = await createUser(db, 'tis.member@example.com', {
        roles: ['member'],
        meta: { name: 'Member' },
      });
      for (const zone of ['Asia/Tokyo', 'America/New_York']) {
        const o = await db.query<{ id: string }>(
          'insert into public.organisation (name, owner, time_zone) values ($1, $2, $3) returning id',
          [zone, member, zone],
        );
        const organisation = o.rows[0]?.id as string;
        await db.query('insert into public.membership (organisation, person, role) values ($1, $2, $3)', [
          organisation,
          member,
          'member',
        ]);
        const p = await db.query<{ id: string }>(
          'insert into public.project (organisation, name, code) values ($1, $2, $3) returning id',
          [organisation, `Project ${zone}`, zone === 'Asia/Tokyo' ? 'TOK' : 'NYC'],
        );
        projects.set(zone, { project: p.rows[0]?.id as string, organisation });
      }
    }, 120_000);
    afterAll(async () => {
      if (db) await backend.release(db);
    });

    it("starts a task overdue when its due date has passed in its project's organisation's zone", async () => {
      for (const [zone, { project, organisation }] of projects)
        for (const [days, expected] of [
          [-1, 'overdue'],
          [0, 'open'],
          [1, 'open'],
        ] as const) {
          const due = localDay(zone, days);
          const r = await db.asUser(member, (q) =>
            q.query<{ status: string; organisation: string }>(
              'insert into public.task (project, title, due_date) values ($1, $2, $3) returning status, organisation',
              [project, `Due ${due}`, due],
            ),
          );
          expect(r.rows[0], `${zone} ${due}`).toEqual({ status: expected, organisation });
        }
    });

    it('refuses an organisation the client sends (the server computes it)', async () => {
      const [{ project, organisation }] = [...projects.values()] as [
        { project: string; organisation: string },
      ];
      await expect(
        db.asUser(member, (q) =>
          q.query('insert into public.task (project, organisation, title) values ($1, $2, $3)', [
            project,
            organisation,
            'Sent',
          ]),
        ),
      ).rejects.toMatchObject({ message: 'FIELD_NOT_WRITABLE' });
    });
  },
);

describe("the form's preview of a task's first state", () => {
  it('is "chosen when saved": the rule hops through the computed organisation', () => {
    expect(initialStateHops(resolve(spec), 'task')).toBeNull();
  });
});
