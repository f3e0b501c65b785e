import type { Transaction } from '@electric-sql/pglite';
import type { OwnerDb } from './browserBackendTypes.ts';
import type { Request } from './protocol.ts';

/**
 * Owner access through the worker, for setup code, benchmarks and tests: one owner transaction
 * per `asOwner`, its statements sent one by one (`unwrap` sends a request and returns its value).
 */
export function ownerFacade(unwrap: (r: Request) => Promise<unknown>): {
  asOwner<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  db: OwnerDb;
} {
  async function asOwner<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = (await unwrap({ kind: 'owner-begin' })) as number;
    const facade = {
      query: (sql: string, params: unknown[] = []) =>
        unwrap({ kind: 'owner-query', tx, sql, params, exec: false }),
      exec: (sql: string) => unwrap({ kind: 'owner-query', tx, sql, params: [], exec: true }),
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(facade);
    } catch (e) {
      await unwrap({ kind: 'owner-end', tx, commit: false }).catch(() => undefined);
      throw e;
    }
    await unwrap({ kind: 'owner-end', tx, commit: true });
    return result;
  }
  const db = {
    query: (sql: string, params?: unknown[]) => asOwner((tx) => tx.query(sql, params)),
    exec: (sql: string) => asOwner((tx) => tx.exec(sql)),
    transaction: (fn: (tx: Transaction) => Promise<unknown>) => asOwner(fn),
  } as unknown as OwnerDb;
  return { asOwner, db };
}
