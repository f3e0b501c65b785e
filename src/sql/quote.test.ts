import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doBlock, dollarQuote, quoteLiteral, sqlComment } from './quote.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import type { TestDb } from './testing/testDb.ts';

const HOSTILE = [
  'a\rcreate table public.pwned_cr (x int);',
  'a\r\ncreate table public.pwned_crlf (x int);',
  'a\ncreate table public.pwned_lf (x int);',
  'a\u2028create table public.pwned_ls (x int);',
  'a\u2029create table public.pwned_ps (x int);',
  'a\vcreate table public.pwned_vt (x int);',
  'a\fcreate table public.pwned_ff (x int);',
  'a\u0085create table public.pwned_nel (x int);',
  'a\u0000create table public.pwned_nul (x int);',
  '*/ create table public.pwned_star (x int); /*',
];

describe('sqlComment', () => {
  it('prefixes every line, whatever ended it, and leaves no control character', () => {
    expect(sqlComment('Tasks\rdrop table t;')).toBe('-- Tasks\n-- drop table t;');
    expect(sqlComment('a\r\nb\u2028c\u2029d\ve\ff\u0085g')).toBe(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((l) => `-- ${l}`).join('\n'),
    );
    expect(sqlComment('nul\u0000here\u001b')).toBe('-- nul\uFFFDhere\uFFFD');
    expect(sqlComment('changes', '--   ')).toBe('--   changes');
  });

  it('doBlock picks a tag its body does not hold', () => {
    expect(doBlock(' begin perform 1; end ')).toBe('do $do$ begin perform 1; end $do$;');
    expect(doBlock(" begin perform '$guard$'; end ", 'guard')).toBe(
      "do $guard1$ begin perform '$guard$'; end $guard1$;",
    );
  });
});

describe('finding 28.1: no text becomes SQL through a comment or a dollar quote (PGlite)', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createPgliteDb();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('finding 28.1: a comment holding a bare carriage return runs nothing', async () => {
    // What main wrote: the name after `-- `, only \n removed. Postgres ends the comment at \r.
    const raw = `-- Ninefold migration for "${'Tasks\rcreate table public.pwned_raw (x int); --'.replaceAll('\n', ' ')}"\nselect 1;`;
    await db.exec(raw);
    expect(await tables(db, 'pwned_raw')).toEqual(['pwned_raw']);
    for (const text of HOSTILE) await db.exec(`${sqlComment(`Ninefold migration for "${text}"`)}\nselect 1;`);
    expect(await tables(db, 'pwned_%')).toEqual(['pwned_raw']);
  });

  it('finding 28.1: a literal holding the block tag does not end a do block', async () => {
    const body = ` begin perform ${quoteLiteral('$guard$; create table public.pwned_tag (x int); do $guard$ begin')}; end `;
    await db.exec(doBlock(body, 'guard'));
    await db.exec(`select ${dollarQuote("$fn$'; create table public.pwned_fn (x int); --", 'fn')};`);
    expect(await tables(db, 'pwned_t%')).toEqual([]);
    expect(await tables(db, 'pwned_fn')).toEqual([]);
  });
});

async function tables(db: TestDb, like: string): Promise<string[]> {
  const r = await db.query<{ relname: string }>(
    "select relname from pg_catalog.pg_class where relnamespace = 'public'::regnamespace and relname like $1 order by 1",
    [like],
  );
  return r.rows.map((x) => x.relname);
}

/**
 * The lint: SQL is written through quote.ts. A template that puts `${…}` after `--` or `/*`, or a
 * hand-written dollar quote (`$do$`, `$fn$`) whose body could hold a literal with the same tag,
 * fails here; the fix is `sqlComment`, `doBlock` or `dollarQuote`.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['src/sql', 'src/migrate', 'src/printers'];
/** Constant SQL without interpolation (test stand-ins), and the outbox (its owner routes it; its block body is constant). */
const CONSTANT_DOLLAR_QUOTES = new Set([
  'src/sql/authStandIn.ts',
  'src/sql/storageStandIn.ts',
  'src/sql/emitOutbox.ts',
]);
const RAW_COMMENT = /--[^`'"\n]*\$\{|\/\*[^`\n]*\$\{|['"`]--[^'"`\n]*['"`]\s*\+/;
const RAW_DOLLAR_QUOTE = /\$[A-Za-z_][A-Za-z_0-9]*\$|\$\$/;

function sources(): string[] {
  return DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.ts') && !f.includes('.test.') && f !== 'quote.ts')
      .map((f) => `${dir}/${f}`),
  );
}

/** The code of a line without its `//` comment (a `//` inside a string is rare enough here). */
function code(line: string): string {
  const trimmed = line.trimStart();
  return trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/**') ? '' : line;
}

describe('finding 28.1: spec text reaches SQL only through quote.ts (lint)', () => {
  it('finding 28.1: no template interpolates into a SQL comment outside quote.ts', () => {
    const found = sources().flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (RAW_COMMENT.test(code(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('finding 28.1: no hand-written dollar quote outside quote.ts (doBlock, dollarQuote, sqlFunction)', () => {
    const found = sources()
      .filter((file) => !CONSTANT_DOLLAR_QUOTES.has(file))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            RAW_DOLLAR_QUOTE.test(code(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(found).toEqual([]);
  });

  it('the lint finds what it looks for', () => {
    const open = '$' + '{'; // written apart: this file is linted too
    expect(RAW_COMMENT.test(`\`-- Screen ${open}screen}\``)).toBe(true);
    expect(RAW_COMMENT.test("'-- ' + name")).toBe(true);
    expect(RAW_COMMENT.test(`\`/* ${open}x} */\``)).toBe(true);
    expect(RAW_DOLLAR_QUOTE.test("'do $guard$'")).toBe(true);
    expect(RAW_COMMENT.test(`sqlComment(\`Screen ${open}screen}\`)`)).toBe(false);
  });
});
