import { describe, expect, it } from 'vitest';
import { postgrestErrorToPg } from './postgrestErrorToPg.ts';

describe('postgrestErrorToPg', () => {
  it('recovers constraint, table and column from Postgres messages', () => {
    expect(
      postgrestErrorToPg({
        code: '23514',
        message: 'new row for relation "ticket" violates check constraint "ticket__title_too_long__1"',
        details: 'Failing row contains (…).',
      }),
    ).toEqual({
      code: '23514',
      message: 'new row for relation "ticket" violates check constraint "ticket__title_too_long__1"',
      detail: 'Failing row contains (…).',
      constraint: 'ticket__title_too_long__1',
      table: 'ticket',
      column: undefined,
    });
    expect(
      postgrestErrorToPg({
        code: '23502',
        message: 'null value in column "title" of relation "ticket" violates not-null constraint',
      }),
    ).toMatchObject({ table: 'ticket', column: 'title', constraint: undefined });
    expect(
      postgrestErrorToPg({
        code: '23503',
        message:
          'update or delete on table "ticket" violates foreign key constraint "comment__ticket__fk" on table "comment"',
      }),
    ).toMatchObject({ table: 'ticket', constraint: 'comment__ticket__fk' });
  });

  it('leaves raised errors alone (the message is the catalogue code)', () => {
    expect(
      postgrestErrorToPg({ code: 'P0001', message: 'NOT_FOUND', details: '{"id":"x"}', hint: null }),
    ).toEqual({
      code: 'P0001',
      message: 'NOT_FOUND',
      detail: '{"id":"x"}',
      constraint: undefined,
      table: undefined,
      column: undefined,
    });
  });
});
