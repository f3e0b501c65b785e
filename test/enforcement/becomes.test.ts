/**
 * An update permission that looks at the row as it becomes (`update.becomes`), on examples/tasks:
 * an organisation's administrators change members' roles, but only an owner makes someone an owner
 * (`role != owner or organisation.owner = me or me is orgOwner`, error ONLY_OWNER_MAKES_OWNER). On
 * PGlite and on the PostgreSQL server: an administrator makes a member an administrator, and is
 * refused with the catalogue code when making one an owner; an owner by membership and the founder
 * can; a plain member changes nothing. The browser (`becomesRefusal`, and the edit form's message)
 * answers as the server, case by case. Adding someone as an owner is making them one: the create
 * has the same `becomes` and code. A `becomes` without `error` refuses with FORBIDDEN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tasks from '../../examples/tasks/spec.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { DataContext } from '../../src/rules/evaluate.ts';
import { becomesRefusal } from '../../src/runtime/becomes.ts';
import { formatMessage } from '../../src/runtime/formatMessage.ts';
import { formSchema } from '../../src/runtime/formSchema.ts';
import { fixtureSpec } from '../../src/runtime/testing/fixtureSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { dbError, type TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';

const backends = await enforcementBackends('becomes.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const spec = tasks as AppSpec;
const model = resolve(spec);
type Row = Record<string, unknown>;
const PEOPLE = ['founder', 'olga', 'adam', 'mia', 'max'] as const;
type Who = (typeof PEOPLE)[number];

/** Who changes whose role to what, and the server's answer: ok, the catalogue code, or no row. */
const CASES: readonly { who: Who; target: Who; role: string; expected: 'ok' | 'none' | string }[] = [
  { who: 'adam', target: 'mia', role: 'admin', expected: 'ok' },
  { who: 'adam', target: 'mia', role: 'owner', expected: 'ONLY_OWNER_MAKES_OWNER' },
  // An owner's membership is not an administrator's to change (its `when` reads the stored role).
  { who: 'adam', target: 'olga', role: 'admin', expected: 'none' },
  { who: 'adam', target: 'olga', role: 'owner', expected: 'none' },
  { who: 'olga', target: 'mia', role: 'owner', expected: 'ok' },
  { who: 'olga', target: 'adam', role: 'member', expected: 'ok' },
  { who: 'founder', target: 'mia', role: 'owner', expected: 'ok' },
  { who: 'mia', target: 'max', role: 'admin', expected: 'none' },
  { who: 'mia', target: 'max', role: 'owner', expected: 'none' },
];

describe.each(backends)('only an owner makes someone an owner ($name)', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  const ids: Record<string, string> = {};
  const memberships: Record<string, string> = {};
  const ROLES: Record<Who, string> = {
    founder: 'owner',
    olga: 'owner',
    adam: 'admin',
    mia: 'member',
    max: 'member',
  };
  beforeAll(async () => {
    db = await backend.open(spec);
    for (const p of PEOPLE) ids[p] = await createUser(db, `${p}@example.com`, { meta: { name: p } });
    await db.asOwner(async (q) => {
      const org = await q.query<{ id: string }>(
        'insert into public.organisation (name, owner) values ($1, $2) returning id',
        ['A', ids.founder],
      );
      ids.org = org.rows[0]?.id as string;
      for (const p of PEOPLE) {
        const m = await q.query<{ id: string }>(
          'insert into public.membership (organisation, person, role) values ($1, $2, $3) returning id',
          [ids.org, ids[p], ROLES[p]],
        );
        memberships[p] = m.rows[0]?.id as string;
      }
      // Organisation B: adam administers it, founded by someone else.
      const b = await q.query<{ id: string }>(
        'insert into public.organisation (name, owner) values ($1, $2) returning id',
        ['B', ids.max],
      );
      ids.orgB = b.rows[0]?.id as string;
      await q.query('insert into public.membership (organisation, person, role) values ($1, $2, $3)', [
        ids.orgB,
        ids.adam,
        'admin',
      ]);
    });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  /** Every role back as seeded: each case starts from the same organisation. */
  const reset = () =>
    db.asOwner(async (q) => {
      for (const p of PEOPLE)
        await q.query('update public.membership set role = $2 where id = $1', [memberships[p], ROLES[p]]);
    });

  /** The rows the rules read, as the owner sees them, and the browser's data context over them. */
  const everyRow = async (): Promise<{ all: Record<string, Row[]>; data: DataContext }> => {
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
    return { all, data };
  };

  const serverAnswer = async (who: Who, target: Who, role: string): Promise<string> => {
    await reset();
    try {
      const r = await db.asUser(ids[who] as string, (q) =>
        q.query('update public.membership set role = $2 where id = $1 returning id', [
          memberships[target],
          role,
        ]),
      );
      return r.rows.length > 0 ? 'ok' : 'none';
    } catch (e) {
      const err = dbError(e);
      return err.code === 'P0001' ? err.message : `${err.code} ${err.message}`;
    }
  };

  it('an administrator makes admins, not owners; an owner and the founder make owners', async () => {
    const answers = [];
    for (const c of CASES) answers.push({ ...c, got: await serverAnswer(c.who, c.target, c.role) });
    expect(answers.map((a) => `${a.who}→${a.target}=${a.role}: ${a.got}`)).toEqual(
      CASES.map((c) => `${c.who}→${c.target}=${c.role}: ${c.expected}`),
    );
  });

  it('the refusal is the catalogue code with the usual error shape, and nothing changed', async () => {
    await reset();
    const error = await db
      .asUser(ids.adam as string, (q) =>
        q.query('update public.membership set role = $2 where id = $1', [memberships.mia, 'owner']),
      )
      .then(
        () => undefined,
        (e: unknown) => dbError(e),
      );
    expect(error?.code).toBe('P0001');
    expect(error?.message).toBe('ONLY_OWNER_MAKES_OWNER');
    expect(JSON.parse(error?.detail ?? '{}')).toEqual({ entity: 'membership', action: 'update' });
    const role = await db.asOwner((q) =>
      q.query<{ role: string }>('select role from public.membership where id = $1', [memberships.mia]),
    );
    expect(role.rows[0]?.role).toBe('member');
  });

  it('an administrator adds a member, not an owner: the create says why, as the browser does', async () => {
    const add = async (who: Who, org: string, role: string, person = 'mia') => {
      try {
        await db.asUser(ids[who] as string, async (q) => {
          await q.query('insert into public.membership (organisation, person, role) values ($1, $2, $3)', [
            ids[org],
            ids[person],
            role,
          ]);
          // Rolled back: every case starts from the same memberships.
          throw Object.assign(new Error('rollback'), { rollback: true });
        });
        return 'ok';
      } catch (e) {
        if ((e as { rollback?: boolean }).rollback) return 'ok';
        const err = dbError(e);
        if (err.code !== 'P0001') return `${err.code} ${err.message} ${err.detail ?? ''}`;
        const detail = JSON.parse(err.detail ?? '{}') as { entity?: string; action?: string };
        return `${err.message} ${detail.entity}.${detail.action}`;
      }
    };
    // Adam administers B (founded by max): a member yes, an owner no, with the catalogue code.
    expect(await add('adam', 'orgB', 'owner')).toBe('ONLY_OWNER_MAKES_OWNER membership.create');
    expect(await add('adam', 'orgB', 'member')).toBe('ok');
    // Max founded B: he makes owners. Mia, a plain member of A, adds nobody: refused as any
    // forbidden create (its `when` does not hold: no `becomes` is asked).
    expect(await add('max', 'orgB', 'owner')).toBe('ok');
    expect(await add('mia', 'org', 'member', 'max')).toBe('FORBIDDEN membership.create');
    // The browser, given the rows the rule reads: the same decision.
    const { data } = await everyRow();
    const adam = { id: ids.adam as string, roles: ['member'] };
    const draft = (role: string) => ({ organisation: ids.orgB, person: ids.mia, role });
    expect(becomesRefusal(model, adam, 'membership', null, draft('owner'), data)).toBe(
      'ONLY_OWNER_MAKES_OWNER',
    );
    expect(becomesRefusal(model, adam, 'membership', null, draft('member'), data)).toBeUndefined();
    const form = formSchema(model, 'membership', 'create', ['member'], { userId: ids.adam });
    // The form holds no other rows: what needs the organisation is the server's to say on submit.
    expect(form.validate(draft('owner'), adam).role).toBeUndefined();
    expect(form.validate(draft('member'), adam).role).toBeUndefined();
  });

  it('the browser answers as the server, and the edit form shows the catalogue message', async () => {
    await reset();
    const { all, data } = await everyRow();
    const message = formatMessage(model, 'ONLY_OWNER_MAKES_OWNER', {});
    let compared = 0;
    for (const c of CASES) {
      const user = { id: ids[c.who] as string, roles: ['member'] };
      const old = (all.membership ?? []).find((r) => r.id === memberships[c.target]) as Row;
      const refusal = becomesRefusal(model, user, 'membership', old, { ...old, role: c.role }, data);
      const server = await serverAnswer(c.who, c.target, c.role);
      // A write no permission applies to is no row, not a `becomes` refusal, in both.
      expect(refusal ?? (server === 'none' ? 'none' : 'ok'), `${c.who}→${c.target}=${c.role}`).toBe(server);
      compared++;
    }
    expect(compared).toBe(CASES.length);
    // A rule the form can decide on the row alone: the field's message before submit.
    const founderless = { ...(all.membership ?? []).find((r) => r.id === memberships.mia) } as Row;
    const form = formSchema(model, 'membership', 'edit', ['member'], { row: founderless, userId: ids.adam });
    const adam = { id: ids.adam as string, roles: ['member'] };
    expect(becomesRefusal(model, adam, 'membership', founderless, { ...founderless, role: 'owner' })).toBe(
      undefined,
    );
    expect(form.validate({ ...founderless, role: 'admin' }, adam, founderless).role).toBeUndefined();
    expect(message).toBe('Only an owner of the organisation can make someone an owner.');
  });
});

/** A `becomes` without `error`, on a role granted everywhere: the agent may not make a ticket urgent. */
const urgent: AppSpec = {
  ...fixtureSpec,
  roles: {
    ...fixtureSpec.roles,
    permissions: {
      ...fixtureSpec.roles.permissions,
      agent: {
        ticket: {
          read: true,
          update: {
            when: true,
            fields: ['priority', 'assignee'],
            becomes: 'priority != high or me is admin',
          },
          delete: false,
        },
      },
    },
  },
};

describe.each(backends)('a becomes without error refuses with FORBIDDEN ($name)', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    db = await backend.open(urgent);
    ids.alice = await createUser(db, 'alice@example.com', { roles: ['customer'] });
    ids.agent = await createUser(db, 'agent@example.com', { roles: ['agent'] });
    ids.admin = await createUser(db, 'admin@example.com', { roles: ['admin'] });
    const t = await db.asOwner((q) =>
      q.query<{ id: string }>(
        "insert into public.ticket (title, body, requester) values ('Printer', 'Down', $1) returning id",
        [ids.alice],
      ),
    );
    ids.ticket = t.rows[0]?.id as string;
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const answer = async (who: string, priority: string): Promise<string> => {
    await db.asOwner((q) =>
      q.query("update public.ticket set priority = 'normal' where id = $1", [ids.ticket]),
    );
    try {
      const r = await db.asUser(ids[who] as string, (q) =>
        q.query('update public.ticket set priority = $2 where id = $1 returning id', [ids.ticket, priority]),
      );
      return r.rows.length > 0 ? 'ok' : 'none';
    } catch (e) {
      const err = dbError(e);
      return err.code === 'P0001' ? err.message : `${err.code} ${err.message}`;
    }
  };

  it('the agent lowers but does not raise to high; the admin (inheriting the agent) does; the browser agrees', async () => {
    const model = resolve(urgent);
    const stored = {
      id: ids.ticket,
      title: 'Printer',
      body: 'Down',
      priority: 'normal',
      status: 'open',
      requester: ids.alice,
    };
    const cases = [
      ['agent', 'low', 'ok'],
      ['agent', 'high', 'FORBIDDEN'],
      ['admin', 'high', 'ok'],
    ] as const;
    for (const [who, priority, expected] of cases) {
      expect(await answer(who, priority), `${who} → ${priority}`).toBe(expected);
      const user = { id: ids[who] as string, roles: [who] };
      expect(becomesRefusal(model, user, 'ticket', stored, { ...stored, priority }) ?? 'ok').toBe(expected);
    }
  });
});
