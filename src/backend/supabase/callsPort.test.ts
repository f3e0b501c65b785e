import { describe, expect, it } from 'vitest';
import type { DeclaredCallSpec } from '../../spec/types.ts';
import { BackendError } from '../types.ts';
import { callRequest, callTarget } from './callsPort.ts';

const call = (method: DeclaredCallSpec['method'], path: string): DeclaredCallSpec => ({
  description: 'x',
  method,
  path,
  service: 'svc',
  payload: {},
  response: {},
  roles: [],
  error: 'E',
});

describe('declared call requests', () => {
  it('tells Edge Functions from external hosts', () => {
    expect(callTarget('notify-email')).toEqual({ kind: 'function', name: 'notify-email' });
    expect(callTarget('rates.example.com')).toEqual({ kind: 'host', origin: 'https://rates.example.com' });
    expect(callTarget('http://localhost:8787/')).toEqual({ kind: 'host', origin: 'http://localhost:8787' });
  });

  it('fills :params (encoded) and puts the rest in the query for GET/DELETE, the body otherwise', () => {
    expect(
      callRequest(call('GET', '/rates/:currency'), { currency: 'EUR/x', day: '2026-01-02', n: 2 }),
    ).toEqual({
      path: '/rates/EUR%2Fx?day=2026-01-02&n=2',
      body: undefined,
    });
    expect(callRequest(call('POST', 'tickets/:id'), { id: 'a', text: 'b' })).toEqual({
      path: '/tickets/a',
      body: { id: 'a', text: 'b' },
    });
    expect(() => callRequest(call('POST', '/t/:id'), {})).toThrow(BackendError);
  });
});
