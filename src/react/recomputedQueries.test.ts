import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { billing } from '../../test/enforcement/support/billing.ts';
import { resolve } from '../model/resolve.ts';
import { invalidateRecomputed, keys } from './hooks.ts';

const model = resolve(billing);

/** A client holding a list and a row of every entity, none stale. */
function seeded(): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  for (const entity of model.tables.keys()) {
    qc.setQueryData(keys.list(entity, undefined, 'u1'), { rows: [], total: 0 });
    qc.setQueryData(keys.row(entity, 'r1'), { id: 'r1' });
  }
  return qc;
}

const invalidated = (qc: QueryClient) =>
  [...model.tables.keys()].filter(
    (e) =>
      qc.getQueryState(keys.list(e, undefined, 'u1'))?.isInvalidated === true &&
      qc.getQueryState(keys.row(e, 'r1'))?.isInvalidated === true,
  );

describe('a write invalidates the queries of entities whose computed fields read it', () => {
  it('follows the chain: an organisation’s write refetches projects and time entries', async () => {
    const qc = seeded();
    await invalidateRecomputed(qc, model, 'organisation');
    expect(invalidated(qc).sort()).toEqual(['project', 'timeEntry']);
  });

  it('a project’s write refetches time entries only; a time entry’s nothing else', async () => {
    const qc = seeded();
    await invalidateRecomputed(qc, model, 'project');
    expect(invalidated(qc)).toEqual(['timeEntry']);
    const other = seeded();
    await invalidateRecomputed(other, model, 'timeEntry');
    expect(invalidated(other)).toEqual([]);
  });
});
