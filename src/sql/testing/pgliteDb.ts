import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../../backend/embedded/pgliteExtensions.ts';
import { clientSessionSql, type Queryable, type TestDb } from './testDb.ts';

/** A fresh in-memory PGlite database behind the `TestDb` interface. */
export async function createPgliteDb(): Promise<TestDb> {
  const db = await PGlite.create({ extensions: pgliteExtensions });
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await q.query<T>(sql, [...params]);
      return r.affectedRows === undefined ? { rows: r.rows } : { rows: r.rows, affectedRows: r.affectedRows };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    async exec(sql) {
      await db.exec(sql);
    },
    async asUser(userId, fn) {
      const { claims, role } = clientSessionSql(userId);
      return db.transaction(async (tx) => {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
        await tx.exec(`set local role ${role}`);
        return fn(wrap(tx));
      });
    },
    async asOwner(fn) {
      return db.transaction(async (tx) => fn(wrap(tx)));
    },
    async close() {
      await db.close();
    },
  };
}
