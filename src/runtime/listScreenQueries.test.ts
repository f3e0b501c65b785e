import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { listScreenQueries } from './listScreenQueries.ts';

const agent = { id: 'u-agent', roles: ['agent'] };

describe('listScreenQueries', () => {
  it('gives the rows (no count) and the total (estimated, no rows) of a URL, as the list screen asks them', () => {
    const q = listScreenQueries(
      resolve(helpdesk),
      'tickets',
      'ticket',
      new URLSearchParams('q=printer&f.status=open&page=2'),
      agent,
    );
    expect(q.page).toEqual({
      filters: [{ field: 'status', op: 'eq', value: 'open' }],
      offset: 50,
      limit: 50,
      count: 'none',
      sort: [{ field: 'createdAt', direction: 'desc' }],
      search: 'printer',
    });
    expect(q.total).toEqual({
      filters: [{ field: 'status', op: 'eq', value: 'open' }],
      search: 'printer',
      offset: 0,
      limit: 0,
      count: 'estimated',
    });
  });

  it("applies the screen's rule for the signed-in person (assignee = me)", () => {
    const q = listScreenQueries(resolve(helpdesk), 'myQueue', 'ticket', new URLSearchParams(), agent);
    expect(q.page.filters).toEqual([
      { field: 'assignee', op: 'eq', value: 'u-agent' },
      { field: 'status', op: 'in', value: ['new', 'open', 'pending'] },
    ]);
    expect(q.page.sort).toEqual([{ field: 'dueAt', direction: 'asc' }]);
    expect(q.total.filters).toEqual(q.page.filters);
  });
});
