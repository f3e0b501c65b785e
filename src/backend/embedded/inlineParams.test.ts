import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineParams, sqlLiteral } from './inlineParams.ts';

describe('sqlLiteral', () => {
  it('quotes strings, numbers, booleans, arrays, objects; NULL for null', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral(42)).toBe("'42'");
    expect(sqlLiteral(true)).toBe("'true'");
    expect(sqlLiteral(['a', null, 'b"c'])).toBe(`'{"a",NULL,"b\\"c"}'`);
    expect(sqlLiteral({ a: "it's" })).toBe(`'{"a":"it''s"}'`);
  });

  it('refuses NUL and non-finite numbers', () => {
    expect(() => sqlLiteral('a\u0000b')).toThrow();
    expect(() => sqlLiteral(Number.NaN)).toThrow();
  });
});

describe('inlineParams', () => {
  it('replaces each placeholder by its literal, $10 not as $1 followed by 0', () => {
    const params = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    expect(inlineParams('$1 $10 $2', params)).toBe("'a' 'j' 'b'");
    expect(() => inlineParams('$3', ['x'])).toThrow();
  });

  describe('round-trips through Postgres unchanged', () => {
    let db: PGlite;
    beforeAll(async () => {
      db = await PGlite.create();
      await db.exec('create table t (id uuid primary key, tags text[], n numeric, j jsonb, s text)');
    });
    afterAll(() => db.close());

    const nasty = [
      "'; drop table t; --",
      "back\\slash \\' quote",
      '$1 $$ dollar $q$',
      'é ✓ "quoted"',
      '{a,b}',
    ];
    for (const s of nasty) {
      it(JSON.stringify(s), async () => {
        const r = await db.exec(
          inlineParams('select $1::text as s, $2::text[] as a, $3::jsonb as j', [s, [s, 'x'], { s }]),
        );
        expect(r[0]?.rows[0]).toEqual({ s, a: [s, 'x'], j: { s } });
      });
    }

    it('types an array literal from its context (uuid = any)', async () => {
      const id = '6f1c3f0e-1111-4222-8333-444455556666';
      await db.query('insert into t (id, n) values ($1, 5)', [id]);
      const r = await db.exec(inlineParams('select n from t where id = any($1) and n > $2', [[id], 4]));
      expect(r[0]?.rows).toEqual([{ n: '5' }]);
    });
  });
});
