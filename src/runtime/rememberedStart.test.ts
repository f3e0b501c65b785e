import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../backend/types.ts';
import {
  confirmDemoClick,
  readRememberedStart,
  rememberDemoClick,
  rememberStart,
} from './rememberedStart.ts';

// Node has no localStorage: a Map-backed one with the same three methods (the browser's own is
// exercised by test/e2e/rememberedStart.e2e.test.ts and firstVisit.e2e.test.ts).
const items = new Map<string, string>();
beforeEach(() => {
  items.clear();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    },
  });
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const target = { key: 'ninefold-app-start', version: 'v1' };
const now = 1_000_000;
const agent: Session = {
  user: { id: 'u1', email: 'agent@demo.test', roles: ['agent'] },
  accessToken: '',
  expiresAt: now + 60_000,
};
const screens = { mutations: [], queries: [{ queryKey: ['ticket', 'list'], state: { data: { rows: [] } } }] };

describe('a demo click left before the backend confirmed it', () => {
  it('is remembered with its screens although no session token is stored, and says which account', () => {
    rememberDemoClick(target, 'agent@demo.test', { session: agent, queries: screens });
    const start = readRememberedStart(target, false, now);
    expect(start?.session?.user.id).toBe('u1');
    expect(start?.demo).toBe('agent@demo.test');
    expect((start?.queries as { queries: unknown[] } | undefined)?.queries).toHaveLength(1);
  });

  it('is an ordinary start once confirmed: signed out, it is forgotten', () => {
    rememberDemoClick(target, 'agent@demo.test', { session: agent, queries: screens });
    confirmDemoClick(target);
    expect(readRememberedStart(target, true, now)?.demo).toBeUndefined();
    expect(readRememberedStart(target, false, now)).toEqual({ session: null, queries: null });
    expect(items.has(target.key)).toBe(false);
  });

  it('loses the mark when the backend’s own screens are kept', () => {
    rememberDemoClick(target, 'agent@demo.test', { session: agent, queries: screens });
    rememberStart(target, agent, '/tickets', screens);
    expect(readRememberedStart(target, false, now)).toEqual({ session: null, queries: null });
  });

  it('is not used from another build or after it expired', () => {
    rememberDemoClick(target, 'agent@demo.test', { session: agent, queries: screens });
    expect(readRememberedStart({ ...target, version: 'v2' }, false, now)).toEqual({
      session: null,
      queries: null,
    });
    rememberDemoClick(target, 'agent@demo.test', { session: agent, queries: screens });
    expect(readRememberedStart(target, false, agent.expiresAt + 1)).toEqual({ session: null, queries: null });
  });
});

describe('the screens kept for the next visit', () => {
  const q = (name: string, data: unknown) => ({ queryKey: [name, 'list'], state: { data } });
  const kept = () =>
    (readRememberedStart(target, true, now)?.queries as { queries: { queryKey: unknown; state: unknown }[] })
      ?.queries ?? [];

  it('keeps a query two screens ask once, with the newest answer', () => {
    rememberStart(target, agent, '/', { queries: [q('ticket', 'old'), q('category', 'c')] });
    rememberStart(target, agent, '/tickets', { queries: [q('ticket', 'new')] });
    expect(kept()).toEqual([q('ticket', 'new'), q('category', 'c')]);
    // Stored once: the shared list's rows are not written twice.
    expect(items.get(target.key)?.match(/"ticket","list"/g)).toHaveLength(1);
  });

  it('loses no query of an older screen when the newer one that held it is replaced', () => {
    rememberStart(target, agent, '/', { queries: [q('ticket', 'home'), q('category', 'c')] });
    rememberStart(target, agent, '/tickets', { queries: [q('ticket', 'list')] });
    // The list is remembered again asking other things: the home screen still has its ticket list.
    rememberStart(target, agent, '/tickets', { queries: [q('person', 'p')] });
    expect(kept()).toEqual([q('person', 'p'), q('ticket', 'list'), q('category', 'c')]);
  });

  it('drops the queries of a screen no longer kept', () => {
    rememberStart(target, agent, '/a', { queries: [q('a', 1)] });
    for (const path of ['/b', '/c', '/d', '/e'])
      rememberStart(target, agent, path, { queries: [q(path, 1)] });
    expect(kept().map((x) => x.queryKey)).toEqual([
      ['/e', 'list'],
      ['/d', 'list'],
      ['/c', 'list'],
      ['/b', 'list'],
    ]);
  });

  it('starts afresh from what an earlier build stored in another form', () => {
    items.set(
      target.key,
      JSON.stringify({ v: 2, version: 'v1', session: agent, screens: [{ path: '/', queries: {} }] }),
    );
    expect(readRememberedStart(target, true, now)).toBeNull();
    rememberStart(target, agent, '/tickets', { queries: [q('ticket', 1)] });
    expect(kept()).toEqual([q('ticket', 1)]);
  });
});
