import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
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
  it('puts the screen back with every query stale, so each is asked again when shown', () => {
    const { client: before, stop } = listScreenCache();
    const state = JSON.parse(JSON.stringify(shownQueries(before)));
    stop();
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    hydrateRemembered(client, state);
    const list = client.getQueryCache().find({ queryKey: keys.list('ticket', page, 'u1') });
    expect(list?.state.data).toMatchObject({ rows: [{ id: 't1', title: 'Printer' }] });
    expect(list?.state.dataUpdatedAt).toBe(0);
    expect(list?.isStaleByTime(10_000)).toBe(true);
    expect(client.getQueryCache().find({ queryKey: keys.row('person', 'u2') })?.state.dataUpdatedAt).toBe(0);
  });

  it('ignores what is not a dehydrated cache', () => {
    const client = new QueryClient();
    hydrateRemembered(client, { queries: 'nope' });
    hydrateRemembered(client, null);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
