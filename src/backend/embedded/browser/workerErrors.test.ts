import { describe, expect, it } from 'vitest';
import { mapDatabaseError } from '../../errors/mapDatabaseError.ts';
import { decodeWorkerError, encodeWorkerError, mapRejections } from './workerErrors.ts';

/** What PGlite's worker RPC does to an error: only the message crosses to the tab. */
const acrossWorker = (e: unknown) => new Error((e as Error).message);

describe('worker error fields', () => {
  it('survive the worker RPC, so the catalogue mapping sees the SQLSTATE', () => {
    const pg = Object.assign(new Error('permission denied for table ticket'), {
      name: 'error',
      code: '42501',
      table: 'ticket',
      severity: 'ERROR',
    });
    expect(mapDatabaseError(acrossWorker(pg)).code).toBe('INTERNAL');
    const back = decodeWorkerError(acrossWorker(encodeWorkerError(pg))) as Record<string, unknown>;
    expect(back).toMatchObject({
      message: 'permission denied for table ticket',
      code: '42501',
      table: 'ticket',
    });
    expect(mapDatabaseError(back).code).toBe('FORBIDDEN');
  });

  it('keeps an IndexedDB error’s name, leaves plain errors and foreign messages alone', () => {
    const quota = Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    expect(decodeWorkerError(acrossWorker(encodeWorkerError(quota)))).toMatchObject({
      name: 'QuotaExceededError',
    });
    expect(mapDatabaseError(decodeWorkerError(acrossWorker(encodeWorkerError(quota)))).code).toBe(
      'STORAGE_FULL',
    );
    expect(mapDatabaseError(acrossWorker(quota)).code).toBe('INTERNAL');
    expect(mapDatabaseError({ code: '53100', message: 'could not extend file' }).code).toBe('STORAGE_FULL');
    const plain = new Error('PGlite is closed');
    expect(encodeWorkerError(plain)).toBe(plain);
    expect(decodeWorkerError(plain)).toBe(plain);
    const once = encodeWorkerError(quota);
    expect(encodeWorkerError(once)).toBe(once);
  });

  it('maps the rejections of the named methods only', async () => {
    const target = {
      a: async () => Promise.reject(new Error('x')),
      b: async () => Promise.reject(new Error('y')),
    };
    mapRejections(target, ['a'], () => new Error('mapped'));
    await expect(target.a()).rejects.toThrow('mapped');
    await expect(target.b()).rejects.toThrow('y');
  });
});
