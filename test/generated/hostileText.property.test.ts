/**
 * Finding 28.1 as a property: generated specifications (`specArb`) whose every text slot holds
 * hostile text — line terminators of every kind, NUL, comment and dollar-quote delimiters, quotes,
 * backslashes, `</script>`, `${}` — are either refused by `check` with a diagnostic, or compile to
 * a migration that creates exactly the catalogue objects of the same specification with plain
 * texts (texts never create, drop or rename anything), and to TypeScript, OpenAPI and a document
 * that carry the texts as data. `FC_HOSTILE` sets how many specifications run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { transformWithOxc } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSpec } from '../../src/check/checkSpec.ts';
import { renderDoc } from '../../src/doc/renderDoc.ts';
import { importDoc } from '../../src/import/importDoc.ts';
import { normalizeSpec } from '../../src/import/normalizeSpec.ts';
import { printSpecTs } from '../../src/import/printSpecTs.ts';
import { printOpenApi } from '../../src/printers/printOpenApi.ts';
import { printPgTap } from '../../src/printers/printPgTap.ts';
import { printTypes } from '../../src/printers/printTypes.ts';
import { importSpecExport } from '../../src/spec/importSpecModule.ts';
import type { AppSpec, EntitySpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createServerDb, serverAvailable } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';
import { specArb } from './specArb.ts';

const runs = Number(process.env.FC_HOSTILE ?? 40);
/** One specification in this many is applied to the databases (each apply is about a second). */
const APPLY_EVERY = 5;
const server = await serverAvailable();
if (!server && process.env.CI === 'true') throw new Error('CI=true but no Postgres server answers');

/** Line ends a SQL comment or a client could stop at, and NUL: never in a migration of a checked spec. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const BREAKS_SQL_LINES = /[\r\u2028\u2029\u0000]/;

const WIPE_SQL = `drop schema if exists app cascade; drop schema if exists auth cascade;
drop schema if exists public cascade; create schema public;`;

/** Pieces that end a comment, a literal, a dollar quote, a script or a template somewhere. */
const CONTROL_PARTS = ['\r', '\n', '\r\n', '\u2028', '\u2029', '\u0000', '\v', '\u0085'];
const PAYLOAD = 'create table public.pwned (x int); --';
const PLAIN_PARTS = [
  '*/',
  '/*',
  '--',
  '$$',
  '$fn$',
  '$do$',
  '$guard$',
  '$body$',
  "'",
  '"',
  '\\',
  '</script>',
  '<!--',
  `$${'{}'}`,
  '`',
  '); drop table x; --',
  "'); globalThis.pwned = 1; //",
  '*/ globalThis.pwned = 1; /*',
  PAYLOAD,
];

/** Hostile text starting with a word (texts are non-empty); `dirty` adds control characters. */
const hostileArb = (dirty: boolean): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...PLAIN_PARTS, ...(dirty ? CONTROL_PARTS : [])), { minLength: 1, maxLength: 4 })
    .map((parts) => `Word ${parts.join(' x ')} end`);

/** A rule-language string literal for a text (`\` and `'` escaped; control characters stay raw). */
const ruleString = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Puts `next()` into every text slot of a generated specification. */
function fillTexts(spec: AppSpec, next: () => string): AppSpec {
  const s = structuredClone(spec);
  s.purpose.name = next();
  s.purpose.summary = next();
  s.purpose.users = [next()];
  for (const screen of Object.values(s.screens)) {
    screen.title = next();
    if (screen.where !== undefined) screen.where = `${screen.where} and title != ${ruleString(next())}`;
  }
  for (const e of Object.values(s.entities) as EntitySpec[]) {
    e.label = next();
    e.plural = next();
    for (const f of Object.values(e.fields)) {
      f.label = next();
      f.help = next();
      if (f.type === 'enum' && f.values)
        f.values = [...f.values.map((v) => ({ value: v as string, label: next() })), next()];
    }
  }
  for (const m of Object.values(s.states)) {
    for (const st of Object.values(m.states)) {
      st.label = next();
      st.description = next();
    }
    for (const t of Object.values(m.transitions)) t.label = next();
  }
  for (const r of Object.values(s.roles.roles)) {
    r.label = next();
    r.description = next();
  }
  for (const e of Object.values(s.errors)) e.message = next();
  for (const c of Object.values(s.constants)) c.label = next();
  if (s.constants.motto) s.constants.motto.value = next();
  addCall(s, next);
  return s;
}

/** A declared call on the first transition, with a hostile description and template. */
function addCall(s: AppSpec, next: () => string): void {
  const [entity, machine] = Object.entries(s.states)[0] ?? [];
  const transition = machine ? Object.values(machine.transitions)[0] : undefined;
  if (!entity || !transition) return;
  const granted = transition.roles.filter((r) => s.roles.roles[r]?.through === undefined);
  s.errors.PING_FAILED = { message: next(), severity: 'error' };
  s.calls.declared.ping = {
    description: next(),
    method: 'POST',
    path: '/functions/v1/ping',
    service: 'ping',
    payload: { note: 'string' },
    response: { ok: 'boolean' },
    // A call has no row: roles held through a relationship cannot make it (check refuses them).
    roles: granted.length > 0 ? granted : Object.keys(s.roles.roles).slice(0, 1),
    error: 'PING_FAILED',
    fill: { note: `${next().replace(/[{}]/g, '')} {title}` },
  };
  transition.calls = ['ping'];
}

const caseArb = specArb.chain((spec) =>
  fc.boolean().chain((dirty) =>
    fc.array(hostileArb(dirty), { minLength: 200, maxLength: 200 }).map((texts) => {
      let i = 0;
      let plain = 0;
      return {
        dirty,
        hostile: fillTexts(spec, () => texts[i++ % texts.length] as string),
        plain: fillTexts(spec, () => `Text ${++plain}`),
      };
    }),
  ),
);

/** The objects of the app's schemas, by kind and name: what a migration created. */
async function catalogue(db: TestDb): Promise<string[]> {
  const r = await db.query<{ o: string }>(
    `select 'class ' || n.nspname || '.' || c.relname as o from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname in ('public', 'app', 'auth')
     union all select 'proc ' || n.nspname || '.' || p.proname from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace where n.nspname in ('public', 'app', 'auth')
     union all select 'policy ' || polname from pg_catalog.pg_policy
     union all select 'trigger ' || tgname from pg_catalog.pg_trigger where not tgisinternal
     union all select 'constraint ' || conname from pg_catalog.pg_constraint c
       join pg_catalog.pg_namespace n on n.oid = c.connamespace where n.nspname in ('public', 'app')
     order by 1`,
  );
  return r.rows.map((x) => x.o);
}

async function applied(db: TestDb, migration: string): Promise<string[]> {
  await db.exec(WIPE_SQL);
  await applyMigration(db, migration);
  return catalogue(db);
}

const dir = mkdtempSync(join(tmpdir(), 'ninefold-hostile-'));
let files = 0;

/** The generated `spec.ts`, loaded as `ninefold` loads a specification: what it exports. */
async function loadSpecTs(source: string): Promise<unknown> {
  const file = join(dir, `spec${++files}.ts`);
  writeFileSync(file, source);
  return importSpecExport(file);
}

/** `printTypes` declares types only: with the types stripped, no code is left. */
// Vite's own transform (a direct dependency), which throws when the file does not parse.
async function codeOf(types: string): Promise<string> {
  const r = await transformWithOxc(types, 'types.ts');
  return r.code.replace('export {};', '').trim();
}

describe('finding 28.1: hostile text in every slot of generated specifications', () => {
  let pglite: TestDb;
  beforeAll(async () => {
    pglite = await createPgliteDb();
  }, 120_000);
  afterAll(async () => {
    await pglite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`finding 28.1: ${runs} generated specs with hostile texts are refused with a diagnostic, or compile to exactly the objects of their plain twin`, async () => {
    const seen = { refused: 0, accepted: 0, applied: 0, docRefused: 0 };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ dirty, hostile, plain }) => {
        n += 1;
        const checked = checkSpec(hostile);
        if (!checked.spec) {
          seen.refused += 1;
          const errors = checked.diagnostics.filter((d) => d.severity === 'error');
          expect(errors.length).toBeGreaterThan(0);
          for (const d of errors) expect(d.message.length).toBeGreaterThan(0);
          // Control characters are refused at the door; `{}` in a message is a placeholder naming nothing.
          for (const d of errors)
            if (d.code === 'spec/invalid-value') expect(d.message, d.path).toMatch(/U\+[0-9A-F]{4}/);
            else expect(d.code, JSON.stringify(d)).toBe('lint/unknown-placeholder');
          if (!dirty) expect(errors.every((d) => d.code === 'lint/unknown-placeholder')).toBe(true);
          return;
        }
        seen.accepted += 1;
        expect(checkSpec(plain).spec).not.toBeNull();
        const migration = compileMigration(hostile);
        for (const target of ['embedded', 'supabase'] as const)
          expect(compileMigration(hostile, { target })).not.toMatch(BREAKS_SQL_LINES);
        expect(printPgTap(hostile)).not.toMatch(BREAKS_SQL_LINES);
        expect(JSON.parse(printOpenApi(hostile))).toBeTypeOf('object');
        expect(await codeOf(printTypes(hostile))).toBe('');
        expect(await loadSpecTs(printSpecTs(hostile))).toEqual(hostile);
        expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
        const back = importDoc(renderDoc(hostile));
        if (back.spec) expect(normalizeSpec(back.spec)).toEqual(normalizeSpec(hostile));
        else {
          seen.docRefused += 1;
          expect(back.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
        }
        if (n % APPLY_EVERY !== 0 && seen.applied > 0) return;
        seen.applied += 1;
        const expected = await applied(pglite, compileMigration(plain));
        expect(await applied(pglite, migration)).toEqual(expected);
        if (server) {
          const db = await createServerDb();
          try {
            await applyMigration(db, migration);
            const got = await catalogue(db);
            expect(got.filter((o) => !expected.includes(o))).toEqual([]);
            expect(got.some((o) => o.includes('pwned'))).toBe(false);
          } finally {
            await db.close();
          }
        }
      }),
      { seed: 28_1, numRuns: runs, endOnFailure: true },
    );
    console.log(
      `hostile texts: ${runs} specs, ${seen.refused} refused by check, ${seen.accepted} accepted (${seen.docRefused} of them refused by doc → import), ${seen.applied} applied${server ? ' on PGlite and the server' : ' on PGlite'}`,
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.accepted).toBeGreaterThan(0);
  }, 240_000);
});
