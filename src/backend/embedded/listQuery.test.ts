import { describe, expect, it } from 'vitest';
import { resolve } from '../../model/resolve.ts';
import type { AppSpec } from '../../spec/types.ts';
import { entityInfo } from './entityInfo.ts';
import { escapeLike, listQuery, MAX_LIMIT } from './listQuery.ts';

const spec = {
  entities: {
    ticket: {
      label: 'Ticket',
      fields: {
        title: { type: 'text' },
        notes: { type: 'longtext', search: false },
        labels: { type: 'tags', values: ['a', 'b'] },
        order: { type: 'integer' },
      },
    },
  },
  states: {},
} as unknown as AppSpec;
const info = entityInfo(resolve(spec), 'ticket');

describe('listQuery', () => {
  it('sorts text without regard to case, the exact value breaking ties (issue 14)', () => {
    const q = listQuery(info, { sort: [{ field: 'title', direction: 'asc' }] });
    expect(q.text).toMatch(/order by lower\(t\.title\) asc, t\.title asc, t\.id asc/);
  });

  it('builds one parameterised select with a window count and a stable order', () => {
    const q = listQuery(info, {
      filters: [
        { field: 'order', op: 'gte', value: 2 },
        { field: 'labels', op: 'contains', value: 'a' },
        { field: 'title', op: 'in', value: ['x', 'y'] },
      ],
      search: '50%_off',
      sort: [{ field: 'order', direction: 'desc' }],
      offset: 20,
      limit: 10,
    });
    expect(q.text).toContain('count(*) over() as __total');
    // Column names are quoted where SQL needs it (`order` is a keyword; quoteIdent, src/sql/quote.ts).
    expect(q.text).toContain('t."order" >= $1 and t.labels @> array[$2]::text[] and t.title = any($3)');
    // Only searchable text fields: notes opted out.
    expect(q.text).toContain('(t.title ilike $4)');
    expect(q.text).toMatch(/order by t\."order" desc, t\.id desc limit 10 offset 20$/);
    expect(q.params).toEqual([2, 'a', ['x', 'y'], '%50\\%\\_off%']);
  });

  it('caps the page size and skips the count when asked', () => {
    const q = listQuery(info, { limit: 10_000, count: 'none' });
    expect(q.limit).toBe(MAX_LIMIT);
    expect(q.text).not.toContain('__total');
  });

  it('refuses unknown fields instead of interpolating them', () => {
    expect(() => listQuery(info, { sort: [{ field: 'title; drop table x', direction: 'asc' }] })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('a%b_c\\')).toBe('a\\%b\\_c\\\\');
  });
});
