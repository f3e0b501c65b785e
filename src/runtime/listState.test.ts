import { describe, expect, it } from 'vitest';
import { listQuery, listStateFromParams, listStateToParams } from './listState.ts';
import { toCsv } from './toCsv.ts';

describe('list state', () => {
  it('round-trips through URL params', () => {
    const s = listStateFromParams(
      new URLSearchParams('q=printer&f.status=open&sort=title&page=3'),
      '-createdAt',
    );
    expect(s).toEqual({ search: 'printer', sort: 'title', page: 3, filters: { status: 'open' } });
    expect(listStateToParams(s, '-createdAt').toString()).toBe('q=printer&sort=title&page=3&f.status=open');
  });
  it('falls back to defaults', () => {
    const s = listStateFromParams(new URLSearchParams('page=-2'), '-createdAt');
    expect(s).toEqual({ search: '', sort: '-createdAt', page: 1, filters: {} });
    expect(listStateToParams(s, '-createdAt').toString()).toBe('');
  });
  it('lists newest first when the screen names no order', () => {
    const s = listStateFromParams(new URLSearchParams(''), undefined);
    expect(s.sort).toBe('-createdAt');
    expect(listQuery(s, []).sort).toEqual([{ field: 'createdAt', direction: 'desc' }]);
    expect(listStateToParams(s, undefined).toString()).toBe('');
  });
  it('builds the backend query', () => {
    const q = listQuery(
      { search: ' x ', sort: '-createdAt', page: 2, filters: { active: 'true', status: 'open' } },
      [{ field: 'assignee', op: 'eq', value: 'me' }],
      new Set(['active']),
      10,
    );
    expect(q).toEqual({
      filters: [
        { field: 'assignee', op: 'eq', value: 'me' },
        { field: 'active', op: 'eq', value: true },
        { field: 'status', op: 'eq', value: 'open' },
      ],
      sort: [{ field: 'createdAt', direction: 'desc' }],
      search: 'x',
      offset: 10,
      limit: 10,
      count: 'exact',
    });
  });
});

describe('listQuery: a chosen value on a field the screen fixes', () => {
  const state = (status: string) => ({ search: '', sort: undefined, page: 1, filters: { status } });
  const fixed = [{ field: 'status', op: 'in' as const, value: ['approved', 'finance_approved'] }];

  it("takes the fixed filter's place when the screen allows it", () => {
    expect(listQuery(state('approved'), fixed).filters).toEqual([
      { field: 'status', op: 'eq', value: 'approved' },
    ]);
    // Compared as text: the chosen value comes from the address.
    expect(
      listQuery({ ...state('x'), filters: { amount: '5' } }, [{ field: 'amount', op: 'eq', value: 5 }])
        .filters,
    ).toEqual([{ field: 'amount', op: 'eq', value: '5' }]);
  });

  it('holds for no row when the screen rules it out', () => {
    expect(listQuery(state('draft'), fixed).filters).toEqual([{ field: 'status', op: 'in', value: [] }]);
  });
});

describe('toCsv', () => {
  it('quotes and neutralises formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['=SUM(A1)', 'ok'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),ok\r\n');
  });
});
