import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSpec } from '../../spec/types.ts';
import { pgliteExtensions } from '../embedded/pgliteExtensions.ts';
import { BackendError } from '../types.ts';
import { codeFromConstraint, errorContext, mapDatabaseError } from './mapDatabaseError.ts';

// A minimal spec: only the parts the mapper reads (errors, entities).
const spec = {
  entities: {
    supportTicket: {
      label: 'Ticket',
      fields: {
        title: { type: 'text' },
        contactEmail: { type: 'email' },
        prio: { type: 'enum', values: ['a', 'b'] },
        teamId: { type: 'ref', ref: 'team' },
      },
    },
    team: { label: 'Team', fields: { name: { type: 'text' } } },
  },
  validation: { supportTicket: [{ kind: 'field', field: 'title', maxLength: 5, error: 'TITLE_TOO_LONG' }] },
  errors: {
    TITLE_TOO_LONG: { message: 'Title at most {maxTitle}', severity: 'error', field: 'supportTicket.title' },
    TICKET_CLOSED: { message: 'Closed', severity: 'error' },
  },
} as unknown as AppSpec;
const ctx = errorContext(spec);

let db: PGlite;
async function failure(sql: string, role?: string): Promise<unknown> {
  try {
    if (role) {
      await db.transaction(async (tx) => {
        await tx.exec(`set local role ${role}`);
        await tx.exec(sql);
      });
    } else await db.exec(sql);
  } catch (e) {
    return e;
  }
  throw new Error(`expected ${sql} to fail`);
}

beforeAll(async () => {
  db = await PGlite.create({ extensions: pgliteExtensions });
  await db.exec(`
    create role authenticated nologin;
    create table team (id int primary key, name text unique);
    create table support_ticket (
      id int primary key,
      title text not null constraint support_ticket__title_too_long__1 check (length(title) <= 5),
      contact_email text,
      prio text constraint support_ticket__prio__values check (prio in ('a', 'b')),
      team_id int references team(id),
      n int check (n > 0)
    );
    alter table support_ticket enable row level security;
    create policy none on support_ticket for insert to authenticated with check (false);
    grant insert on support_ticket to authenticated;
    insert into team values (1, 'a');
    insert into support_ticket values (1, 'ok', null, null, 1, 1);
  `);
}, 180_000);
afterAll(async () => {
  await db.close();
});

describe('mapDatabaseError on real PGlite errors', () => {
  it('P0001 with a catalogue code keeps the code and the JSON detail as params', async () => {
    const e = await failure(
      `do $$ begin raise exception using errcode = 'P0001', message = 'TICKET_CLOSED', detail = '{"days":3}'; end $$`,
    );
    const be = mapDatabaseError(e, ctx);
    expect(be).toBeInstanceOf(BackendError);
    expect([be.code, be.params]).toEqual(['TICKET_CLOSED', { days: 3 }]);
  });

  it('P0001 with an unknown message does not leak it', async () => {
    const e = await failure(`do $$ begin raise exception 'secret table xyz broke'; end $$`);
    const be = mapDatabaseError(e, ctx);
    expect(be.code).toBe('INTERNAL');
    expect(be.message).not.toContain('secret');
  });

  it('check violation → the code in the constraint name, with the field from the catalogue', async () => {
    const be = mapDatabaseError(
      await failure(`insert into support_ticket values (2, 'too long title')`),
      ctx,
    );
    expect([be.code, be.field]).toEqual(['TITLE_TOO_LONG', 'supportTicket.title']);
  });

  it('check violation without a code → INVALID_VALUE', async () => {
    const be = mapDatabaseError(
      await failure(`insert into support_ticket values (2, 'x', null, null, 1, -1)`),
      ctx,
    );
    expect(be.code).toBe('INVALID_VALUE');
  });

  it('allowed-values check → INVALID_VALUE with the field (from the constraint catalogue)', async () => {
    const be = mapDatabaseError(await failure(`insert into support_ticket values (2, 'x', null, 'z')`), ctx);
    expect([be.code, be.field]).toEqual(['INVALID_VALUE', 'supportTicket.prio']);
  });

  it('unique → UNIQUE with the field', async () => {
    const be = mapDatabaseError(await failure(`insert into team values (2, 'a')`), ctx);
    expect([be.code, be.field, be.params]).toEqual(['UNIQUE', 'team.name', { field: 'team.name' }]);
  });

  it('foreign key, both directions → REFERENCE', async () => {
    const missing = mapDatabaseError(
      await failure(`insert into support_ticket values (3, 'x', null, null, 99, 1)`),
      ctx,
    );
    expect([missing.code, missing.field, missing.params]).toEqual([
      'REFERENCE',
      'supportTicket.teamId',
      { reason: 'missing', entity: 'team' },
    ]);
    const inUse = mapDatabaseError(await failure(`delete from team where id = 1`), ctx);
    expect([inUse.code, inUse.params]).toEqual(['REFERENCE', { reason: 'in-use', entity: 'supportTicket' }]);
  });

  it('not null → REQUIRED with the field', async () => {
    const be = mapDatabaseError(
      await failure(`insert into support_ticket (id, title) values (4, null)`),
      ctx,
    );
    expect([be.code, be.field]).toEqual(['REQUIRED', 'supportTicket.title']);
  });

  it('RLS refusal and missing privileges → FORBIDDEN', async () => {
    const rls = await failure(`insert into support_ticket values (5, 'x')`, 'authenticated');
    expect(mapDatabaseError(rls, ctx).code).toBe('FORBIDDEN');
    const priv = await failure(`select * from team`, 'authenticated');
    expect(mapDatabaseError(priv, ctx).code).toBe('FORBIDDEN');
  });

  it('serialization failure and deadlock → CONFLICT', async () => {
    const e = await failure(`do $$ begin raise exception using errcode = '40001'; end $$`);
    expect(mapDatabaseError(e, ctx).code).toBe('CONFLICT');
    const d = await failure(`do $$ begin raise exception using errcode = '40P01'; end $$`);
    expect(mapDatabaseError(d, ctx).code).toBe('CONFLICT');
  });

  it('bad input syntax → INVALID_VALUE; anything else → INTERNAL without the raw message', async () => {
    expect(mapDatabaseError(await failure(`select 'x'::uuid`), ctx).code).toBe('INVALID_VALUE');
    const be = mapDatabaseError(await failure(`select * from no_such_table`), ctx);
    expect(be.code).toBe('INTERNAL');
    expect(be.message).not.toContain('no_such_table');
  });

  it('a closed database → UNAVAILABLE', async () => {
    const closed = await PGlite.create();
    await closed.close();
    const e = await closed.query('select 1').catch((x: unknown) => x);
    expect(mapDatabaseError(e, ctx).code).toBe('UNAVAILABLE');
    expect(mapDatabaseError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).code).toBe(
      'UNAVAILABLE',
    );
  });

  it('passes BackendErrors through and tolerates non-errors', () => {
    const be = new BackendError('CONFLICT');
    expect(mapDatabaseError(be)).toBe(be);
    expect(mapDatabaseError('boom').code).toBe('INTERNAL');
  });
});

describe('codeFromConstraint', () => {
  const codes = new Set(['TOO_LONG', 'TITLE_TOO_LONG']);
  it('reads the suffix after the double underscore, else the longest known code at the end', () => {
    expect(codeFromConstraint('t_title__title_too_long', codes)).toBe('TITLE_TOO_LONG');
    expect(codeFromConstraint('ticket__title_too_long__2', codes)).toBe('TITLE_TOO_LONG');
    expect(codeFromConstraint('ticket_title_too_long', codes)).toBe('TITLE_TOO_LONG');
    expect(codeFromConstraint('ticket_check', codes)).toBeUndefined();
  });
});
