import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgliteBundleFiles, trimmedPgliteData } from './pgliteDataPlugin.ts';

describe('PGlite file bundle for a database made from a snapshot', () => {
  it('reads the file list PGlite holds for its bundle', () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const files = pgliteBundleFiles(readFileSync(join(dist, 'pglite.js'), 'utf8'));
    const names = files.map((f) => f.filename);
    expect(names).toContain('/pglite/share/postgresql/postgres.bki');
    expect(names).toContain('/pglite/share/postgresql/timezone/Europe/Berlin');
    expect(Math.max(...files.map((f) => f.end))).toBe(readFileSync(join(dist, 'pglite.data')).length);
  });

  it('zeroes what initdb alone reads, keeps the named time zones, plpgsql and everything else in place', () => {
    const files = [
      { filename: '/pglite/share/postgresql/postgres.bki', start: 0, end: 2 },
      { filename: '/pglite/share/postgresql/timezone/Europe/Berlin', start: 2, end: 4 },
      { filename: '/pglite/lib/postgresql/utf8_and_sjis.so', start: 4, end: 6 },
      { filename: '/pglite/lib/postgresql/dict_snowball.so', start: 6, end: 8 },
      { filename: '/pglite/lib/postgresql/pgxs/src/Makefile.global', start: 8, end: 10 },
      { filename: '/pglite/share/postgresql/tsearch_data/english.stop', start: 10, end: 12 },
      { filename: '/pglite/lib/postgresql/plpgsql.so', start: 12, end: 14 },
    ];
    const data = new Uint8Array([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
    expect([...trimmedPgliteData(data, files, ['UTC', 'Europe/Berlin'])]).toEqual([
      0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 7, 7,
    ]);
    expect([...data]).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
  });

  it('zeroes the time zones the app cannot name and keeps UTC and its aliases', () => {
    const zone = (name: string, i: number) => ({
      filename: `/pglite/share/postgresql/timezone/${name}`,
      start: i,
      end: i + 1,
    });
    const names = ['UTC', 'Etc/UTC', 'GMT', 'Europe/Berlin', 'Asia/Tokyo', 'America/New_York'];
    const files = names.map(zone);
    const data = new Uint8Array(names.map(() => 9));
    // Names are matched without regard to case, as Postgres opens the files.
    expect([...trimmedPgliteData(data, files, ['UTC', 'asia/tokyo'])]).toEqual([9, 9, 9, 0, 9, 0]);
  });
});
