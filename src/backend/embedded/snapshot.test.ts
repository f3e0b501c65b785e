import { gunzipSync } from 'node:zlib';
import { type DehydratedState, hashKey } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdeskDemo from '../../../examples/helpdesk/demo.ts';
import helpdesk from '../../../examples/helpdesk/spec.ts';
import { resolve as resolveModel } from '../../model/resolve.ts';
import { demoScreens } from '../../react/demoScreens.ts';
import { PAGE_SIZE } from '../../runtime/listState.ts';
import type { ListQuery, ListResult } from '../types.ts';
import { embeddedSchema, storedSchemaVersion } from './boot.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from './createEmbeddedBackend.ts';
import { registerDemo } from './demo/appDemo.ts';
import { demoAccounts } from './demo/demoAccounts.ts';
import { buildBaseSnapshot, buildSnapshot, type DatabaseSnapshot } from './snapshot.ts';
import { snapshotBlob } from './snapshotBlob.ts';

// As the app entry does: the helpdesk's demo data is its own (examples/helpdesk/demo.ts).
registerDemo(helpdesk, helpdeskDemo);

describe('database snapshot (what the build ships for a first visit)', () => {
  let snapshot: DatabaseSnapshot;
  let backend: EmbeddedBackend;

  beforeAll(async () => {
    snapshot = await buildSnapshot(helpdesk, { demo: true, now: new Date('2026-03-02T09:00:00Z') });
    backend = await createEmbeddedBackend({
      spec: helpdesk,
      loadDataDir: new Blob([snapshot.tarball as BlobPart]),
      schemaVersion: snapshot.version,
    });
  }, 120_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('records the schema version boot computes, and booting from it applies nothing', async () => {
    expect(snapshot.version).toBe((await embeddedSchema(helpdesk)).version);
    expect(await storedSchemaVersion(backend.db)).toBe(snapshot.version);
    expect(backend.schema).toEqual({ version: snapshot.version, outcome: 'unchanged' });
  });

  it('signs in as a demo account (hash made at build time) and lists demo rows', async () => {
    await backend.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' });
    const { rows } = await backend.data.list('ticket', { sort: [{ field: 'createdAt', direction: 'desc' }] });
    expect(rows.length).toBeGreaterThan(10);
    await backend.auth.signOut();
    await expect(backend.auth.signIn({ email: 'agent@demo.test', password: 'wrong' })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
  });

  it('keeps only the WAL segment in use: the checkpoint before the dump deleted the others', () => {
    const wal = tarEntries(gunzipSync(snapshot.tarball)).filter((name) => /pg_wal\/[0-9A-F]{24}$/.test(name));
    expect(wal).toHaveLength(1);
  });

  it('leaves out what the browser never reads: information_schema, built-in descriptions', async () => {
    const q = async (sql: string) => (await backend.db.query<{ n: number }>(sql)).rows[0]?.n;
    expect(await q(`select count(*)::int as n from pg_namespace where nspname = 'information_schema'`)).toBe(
      0,
    );
    expect(await q('select count(*)::int as n from pg_description where objoid < 16384')).toBe(0);
    // The app's own tables, and a schema upgrade that reads the catalog, still work.
    expect(await q(`select count(*)::int as n from pg_class where relname = 'ticket'`)).toBe(1);
  });

  it('a spec with a new field upgrades a database made from the snapshot', async () => {
    const fields = {
      ...helpdesk.entities.ticket.fields,
      reference: { type: 'text' as const, label: 'Reference' },
    };
    const next = {
      ...helpdesk,
      entities: { ...helpdesk.entities, ticket: { ...helpdesk.entities.ticket, fields } },
    };
    const upgraded = await createEmbeddedBackend({
      spec: next,
      loadDataDir: new Blob([snapshot.tarball as BlobPart]),
    });
    try {
      expect(upgraded.schema.outcome).toBe('upgraded');
      await upgraded.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' });
      const { rows } = await upgraded.data.list('ticket', {});
      expect(rows.length).toBeGreaterThan(10);
      expect(rows[0]).toHaveProperty('reference', null);
    } finally {
      await upgraded.close();
    }
  }, 120_000);

  it('a database without a version row reports none (fresh databases take the full path)', async () => {
    await backend.db
      .transaction(async (tx) => {
        await tx.exec('drop schema ninefold cascade');
        expect(await storedSchemaVersion(tx)).toBeUndefined();
        throw new Error('rollback');
      })
      .catch((e: unknown) => {
        if (!(e instanceof Error && e.message === 'rollback')) throw e;
      });
    expect(await storedSchemaVersion(backend.db)).toBe(snapshot.version);
  });

  it('has no data checksums: a read after a bulk load writes nothing (no hint-bit pages in the WAL)', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ loadDataDir: new Blob([snapshot.tarball as BlobPart]) });
    try {
      expect(
        (await db.query<{ data_checksums: string }>('show data_checksums')).rows[0]?.data_checksums,
      ).toBe('off');
      // A bulk load (an import, the benchmarks' seeding): its rows carry no hint bits until read.
      await db.exec(
        `create table scratch as select g as id, 'row ' || g as s from generate_series(1, 100000) g`,
      );
      await db.exec('checkpoint');
      const fs = (db as unknown as { Module: { FS: Record<string, (...a: unknown[]) => unknown> } }).Module
        .FS;
      const write = fs.write as (...a: unknown[]) => unknown;
      let writes = 0;
      fs.write = (...a: unknown[]) => {
        writes++;
        return write.apply(fs, a);
      };
      // With checksums each page's first hint bit after the checkpoint wrote the page into the
      // WAL: 417 file writes for this read, and in the browser a full IndexedDB sync before its answer.
      await db.query(`select count(*) from scratch where s like '%9%'`);
      fs.write = write;
      expect(writes).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('opens from a snapshot a server sent with Content-Encoding: gzip (a plain tar still typed gzip)', async () => {
    const { gunzipSync } = await import('node:zlib');
    // What the browser hands over when the server compressed the .tar.gz again: the tar itself.
    const tar = new Blob([gunzipSync(snapshot.tarball) as BlobPart], { type: 'application/gzip' });
    const fromTar = await createEmbeddedBackend({
      spec: helpdesk,
      loadDataDir: tar,
      schemaVersion: snapshot.version,
    });
    try {
      expect(fromTar.schema.outcome).toBe('unchanged');
    } finally {
      await fromTar.close();
    }
    expect((await snapshotBlob(tar)).type).toBe('application/x-tar');
    expect((await snapshotBlob(new Blob([snapshot.tarball as BlobPart]))).type).toBe('application/x-gzip');
  });

  it('keeps each demo account’s first lists with the next page they read ahead (a first "Next page" needs no database)', async () => {
    const screens = await demoScreens(
      resolveModel(helpdesk),
      backend,
      demoAccounts(helpdesk),
      Date.now() + 60_000,
    );
    const agent = screens['agent@demo.test'];
    if (!agent) throw new Error('no first screens for the demo agent');
    const queries = (agent.queries as DehydratedState).queries;
    const list = (q: DehydratedState['queries'][number]) =>
      q.queryKey[0] === 'ticket' && q.queryKey[1] === 'list';
    const ahead = queries.filter((q) => list(q) && typeof q.meta?.readAheadOf === 'string');
    expect(ahead.length).toBeGreaterThan(0);
    for (const next of ahead) {
      // It names a page kept beside it, and starts where that page ends.
      const page = queries.find((q) => list(q) && hashKey(q.queryKey) === next.meta?.readAheadOf);
      if (!page) throw new Error(`no page kept for the read-ahead ${JSON.stringify(next.queryKey)}`);
      const [, , pageQuery] = page.queryKey as [string, string, ListQuery];
      const [, , nextQuery] = next.queryKey as [string, string, ListQuery];
      expect(nextQuery).toEqual({ ...pageQuery, offset: (pageQuery.offset ?? 0) + PAGE_SIZE });
      const rows = (q: typeof next) => (q.state.data as ListResult).rows.map((r) => r.id);
      expect(rows(next).length).toBeGreaterThan(0);
      expect(rows(next).some((id) => rows(page).includes(id))).toBe(false);
    }
  }, 60_000);
});

/** The file names in a tar archive (ustar headers: name at 0, size in octal at 124, 512-byte blocks). */
function tarEntries(tar: Uint8Array): string[] {
  const names: string[] = [];
  const text = (from: number, length: number) =>
    new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const prefix = text(at + 345, 155);
    names.push(`${prefix ? `${prefix}/` : ''}${text(at, 100)}`);
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe("the studio's base database (initdb's output, made in Node)", () => {
  it('a spec boots on it as on a new database: the whole schema applied, sign-up and reads work, information_schema kept', async () => {
    const base = await buildBaseSnapshot();
    // About 1 MB gzip (initdb in the browser took 4–5 s).
    expect(base.length).toBeLessThan(2_000_000);
    const backend = await createEmbeddedBackend({
      spec: helpdesk,
      loadDataDir: new Blob([base as BlobPart]),
    });
    try {
      expect(backend.schema.outcome).toBe('created');
      expect(await storedSchemaVersion(backend.db)).toBe((await embeddedSchema(helpdesk)).version);
      await backend.auth.signUp({ email: 'new@example.test', password: 'a long enough password' });
      expect((await backend.data.list('ticket', {})).rows).toEqual([]);
      const views = await backend.db.query<{ n: number }>(
        `select count(*)::int as n from pg_namespace where nspname = 'information_schema'`,
      );
      expect(views.rows[0]?.n).toBe(1);
    } finally {
      await backend.close();
    }
  }, 120_000);
});
