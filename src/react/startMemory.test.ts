import { hashKey, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Backend } from '../backend/types.ts';
import { keys } from './hooks.ts';
import { hydrateRemembered, shownQueries } from './startMemory.ts';

const page = { filters: [], offset: 0, limit: 50, count: 'none' as const };

/** A cache as a list screen leaves it: what the screen shows is observed, the rest is not. */
function listScreenCache(): { client: QueryClient; stop: () => void } {
  const client = new QueryClient();
  client.setQueryData(keys.list('ticket', page, 'u1'), {
    rows: [{ id: 't1', title: 'Printer' }],
    total: null,
  });
  client.setQueryData(keys.row('person', 'u2'), { id: 'u2', name: 'Cas' });
  // Cached but on no screen now: another ticket, a history seen earlier.
  client.setQueryData(keys.row('ticket', 't9'), { id: 't9', title: 'Other' });
  client.setQueryData(keys.history('ticket', 't1'), []);
  const offs = [keys.list('ticket', page, 'u1'), keys.row('person', 'u2')].map((queryKey) =>
    new QueryObserver(client, { queryKey, enabled: false }).subscribe(() => undefined),
  );
  return {
    client,
    stop: () => {
      for (const off of offs) off();
    },
  };
}

describe('shownQueries', () => {
  it('keeps what a mounted screen shows, not the rest of the cache', () => {
    const { client, stop } = listScreenCache();
    const kept = (shownQueries(client)?.queries ?? []).map((q) => JSON.stringify(q.queryKey)).sort();
    stop();
    expect(kept).toEqual(
      [JSON.stringify(keys.list('ticket', page, 'u1')), JSON.stringify(keys.row('person', 'u2'))].sort(),
    );
  });

  it('keeps the next page read ahead of a shown list, with the rows it names, and no other read-ahead', async () => {
    const { client, stop } = listScreenCache();
    const next = { ...page, offset: 50 };
    const readAhead = (query: typeof page, after: typeof page, rows: unknown[]) =>
      client.prefetchQuery({
        queryKey: keys.list('ticket', query, 'u1'),
        queryFn: async () => ({ rows, total: null }),
        meta: { readAheadOf: hashKey(keys.list('ticket', after, 'u1')) },
      });
    await readAhead(next, page, [{ id: 't51', title: 'Scanner', requester: 'u7' }]);
    // Read ahead of a page no longer shown (page 3 while page 1 shows): not kept.
    await readAhead({ ...page, offset: 150 }, { ...page, offset: 100 }, [{ id: 't151', requester: 'u8' }]);
    client.setQueryData(keys.row('person', 'u7'), { id: 'u7', name: 'Ida' });
    client.setQueryData(keys.row('person', 'u8'), { id: 'u8', name: 'Bo' });
    const kept = (shownQueries(client)?.queries ?? []).map((q) => JSON.stringify(q.queryKey)).sort();
    stop();
    expect(kept).toEqual(
      [
        keys.list('ticket', page, 'u1'),
        keys.list('ticket', next, 'u1'),
        keys.row('person', 'u2'),
        keys.row('person', 'u7'),
      ]
        .map((k) => JSON.stringify(k))
        .sort(),
    );
  });

  it('does not keep a read-ahead a write outdated', async () => {
    const { client, stop } = listScreenCache();
    const next = { ...page, offset: 50 };
    await client.prefetchQuery({
      queryKey: keys.list('ticket', next, 'u1'),
      queryFn: async () => ({ rows: [{ id: 't51' }], total: null }),
      meta: { readAheadOf: hashKey(keys.list('ticket', page, 'u1')) },
    });
    await client.invalidateQueries({ queryKey: keys.list('ticket', next, 'u1'), refetchType: 'none' });
    const kept = (shownQueries(client)?.queries ?? []).map((q) => JSON.stringify(q.queryKey));
    stop();
    expect(kept).not.toContain(JSON.stringify(keys.list('ticket', next, 'u1')));
    expect(kept).toContain(JSON.stringify(keys.list('ticket', page, 'u1')));
  });

  it('keeps nothing while a shown query waits to be asked again after a change', async () => {
    const { client, stop } = listScreenCache();
    await client.invalidateQueries({ queryKey: ['person'], refetchType: 'none' });
    expect(shownQueries(client)).toBeNull();
    stop();
  });

  it('keeps nothing when nothing is shown, or when it is too large for localStorage', () => {
    const { client, stop } = listScreenCache();
    stop();
    expect(shownQueries(client)).toBeNull();
    const big = new QueryClient();
    big.setQueryData(['ticket', 'row', 'x'], { id: 'x', text: 'x'.repeat(500_000) });
    const off = new QueryObserver(big, { queryKey: ['ticket', 'row', 'x'], enabled: false }).subscribe(
      () => undefined,
    );
    expect(shownQueries(big)).toBeNull();
    off();
  });
});

describe('hydrateRemembered', () => {
  it('puts the screen back with its lists stale, so each is asked again when shown', () => {
    const { client: before, stop } = listScreenCache();
    const state = JSON.parse(JSON.stringify(shownQueries(before)));
    stop();
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    hydrateRemembered(client, state);
    const list = client.getQueryCache().find({ queryKey: keys.list('ticket', page, 'u1') });
    expect(list?.state.data).toMatchObject({ rows: [{ id: 't1', title: 'Printer' }] });
    expect(list?.state.dataUpdatedAt).toBe(0);
    expect(list?.isStaleByTime(10_000)).toBe(true);
    // The rows its cells name are answered for now: not asked one by one ahead of the list.
    expect(
      client
        .getQueryCache()
        .find({ queryKey: keys.row('person', 'u2') })
        ?.isStaleByTime(10_000),
    ).toBe(false);
  });

  it("asks the rows again after the first list's answer, one request per entity", async () => {
    const { client: before, stop } = listScreenCache();
    before.setQueryData(keys.row('person', 'u3'), { id: 'u3', name: 'Ana' });
    const off = new QueryObserver(before, { queryKey: keys.row('person', 'u3'), enabled: false }).subscribe(
      () => undefined,
    );
    const state = JSON.parse(JSON.stringify(shownQueries(before)));
    stop();
    off();
    const asked: unknown[][] = [];
    const backend = {
      data: {
        list: async (entity: string, query: unknown) => {
          asked.push([entity, query]);
          return { rows: [{ id: 'u2', name: 'Cas Renamed' }], total: null };
        },
      },
    } as unknown as Backend;
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    hydrateRemembered(client, state, backend);
    expect(asked).toEqual([]);
    client.setQueryData(keys.list('ticket', page, 'u1'), { rows: [], total: null });
    expect(asked).toEqual([]); // set by hand, not an answer of the backend
    await client.fetchQuery({
      queryKey: keys.list('ticket', page, 'u1'),
      queryFn: async () => ({ rows: [], total: null }),
      staleTime: 0,
    });
    await vi.waitFor(() =>
      expect(client.getQueryData(keys.row('person', 'u2'))).toMatchObject({ name: 'Cas Renamed' }),
    );
    expect(asked).toEqual([
      ['person', { filters: [{ field: 'id', op: 'in', value: ['u2', 'u3'] }], limit: 2, count: 'none' }],
    ]);
    // Not found by the batch (gone, or no longer readable): asked again by itself when shown.
    expect(client.getQueryCache().find({ queryKey: keys.row('person', 'u3') })?.state.isInvalidated).toBe(
      true,
    );
  });

  it('ignores what is not a dehydrated cache', () => {
    const client = new QueryClient();
    hydrateRemembered(client, { queries: 'nope' });
    hydrateRemembered(client, null);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
