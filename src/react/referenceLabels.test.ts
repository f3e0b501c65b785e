import { describe, expect, it } from 'vitest';
import spec from '../../examples/helpdesk/spec.ts';
import type { Row } from '../backend/types.ts';
import { resolve } from '../model/resolve.ts';
import { missingReferences } from './referenceLabels.ts';

const helpdesk = resolve(spec);
const profile = helpdesk.profile ?? '';
const row = (id: string, values: Record<string, unknown>): Row =>
  ({ id, version: 1, createdAt: '', updatedAt: '', ...values }) as Row;

describe('missingReferences', () => {
  const rows = [
    row('t1', { category: 'c1', requester: 'u1', assignee: 'me' }),
    row('t2', { category: 'c1', requester: 'u2', assignee: null }),
    row('t3', { category: 'c2', requester: 'u1', assignee: 'u3' }),
  ];

  it('collects each referenced id once per referenced entity, leaving out the signed-in user', () => {
    const m = missingReferences(helpdesk, 'ticket', rows, 'me', () => false);
    expect(m.get('category')?.sort()).toEqual(['c1', 'c2']);
    expect(m.get(profile)?.sort()).toEqual(['u1', 'u2', 'u3']);
  });

  it('skips ids already known, and entities with nothing missing', () => {
    const m = missingReferences(helpdesk, 'ticket', rows, 'me', (e, id) => e === 'category' || id === 'u1');
    expect(m.has('category')).toBe(false);
    expect(m.get(profile)?.sort()).toEqual(['u2', 'u3']);
  });

  it('returns nothing for an entity without references or an empty page', () => {
    expect(missingReferences(helpdesk, 'ticket', [], 'me', () => false).size).toBe(0);
    expect(missingReferences(helpdesk, 'nope', rows, 'me', () => false).size).toBe(0);
  });
});
