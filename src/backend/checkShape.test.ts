import { describe, expect, it } from 'vitest';
import { checkShape } from './checkShape.ts';

const shape = {
  ticketId: 'uuid',
  to: 'email',
  'cc?': ['email'],
  count: 'integer',
  at: 'datetime',
  meta: { urgent: 'boolean', 'score?': 'number' },
} as const;

const good = {
  ticketId: '0b7e8a4e-8a3c-4d5e-9f00-1234567890ab',
  to: 'ana@example.com',
  count: 3,
  at: '2026-01-02T10:00:00Z',
  meta: { urgent: true },
};

describe('checkShape', () => {
  it('accepts a payload that fits, optional fields absent or present', () => {
    expect(checkShape(shape, good)).toEqual([]);
    expect(checkShape(shape, { ...good, cc: ['b@c.de'], meta: { urgent: false, score: 1.5 } })).toEqual([]);
  });

  it('reports missing, mistyped and unexpected fields with paths', () => {
    const issues = checkShape(shape, {
      ...good,
      ticketId: 'not-a-uuid',
      count: 1.5,
      cc: ['ok@x.io', 'nope'],
      meta: { urgent: 'yes' },
      extra: 1,
      to: undefined,
    });
    expect(issues).toEqual([
      { path: 'ticketId', problem: 'type', expected: 'uuid' },
      { path: 'to', problem: 'missing', expected: 'email' },
      { path: 'cc.1', problem: 'type', expected: 'email' },
      { path: 'count', problem: 'type', expected: 'integer' },
      { path: 'meta.urgent', problem: 'type', expected: 'boolean' },
      { path: 'extra', problem: 'unexpected' },
    ]);
  });

  it('refuses non-objects and bad datetimes', () => {
    expect(checkShape(shape, null)).toEqual([{ path: '', problem: 'type', expected: 'object' }]);
    expect(checkShape({ at: 'datetime' }, { at: '2026-13-45' })).toEqual([
      { path: 'at', problem: 'type', expected: 'datetime' },
    ]);
  });
});
