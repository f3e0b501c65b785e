import type { PGliteInterface } from '@electric-sql/pglite';
import { assembleEmbedded } from '../assembleEmbedded.ts';
import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import type { Live } from '../live.ts';
import type { SessionStore } from '../sessionStore.ts';
import { openWorkerDatabase } from './openWorkerDatabase.ts';
import type { InitMessage } from './protocol.ts';
import { markWorker } from './workerMarks.ts';

/** What the leader's backend reads through the call in progress (serveBackend.ts). */
export interface LeaderScope {
  store: SessionStore;
  live: Live;
  now: () => Date;
  progress: (line: string) => void;
}

/**
 * The leader worker's backend: its database opened (IndexedDB or OPFS, from the first visit's
 * snapshot if any) and the backend assembled on it the one way (assembleEmbedded.ts), with the
 * call in progress's session token, clock and live channel (serveBackend.ts).
 */
export async function leaderBackend(options: InitMessage, the: LeaderScope): Promise<EmbeddedBackend> {
  const db = await openWorkerDatabase({
    dataDir: options.dataDir,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(options.preferOpfs ? { preferOpfs: true } : {}),
    ...(options.snapshotUrl ? { snapshotUrl: options.snapshotUrl } : {}),
  });
  markWorker('db-open');
  return leaderBackendOn(db, options, the);
}

/**
 * The backend on an open database (its schema brought to `options.spec` first): at start, and
 * again on the same database when the spec changes (respecLeader.ts).
 */
export function leaderBackendOn(
  db: PGliteInterface,
  options: InitMessage,
  the: LeaderScope,
): Promise<EmbeddedBackend> {
  return assembleEmbedded({
    spec: options.spec,
    db,
    store: the.store,
    live: the.live,
    now: the.now,
    ...(options.schemaVersion ? { schemaVersion: options.schemaVersion } : {}),
    // Only the leader boots, so only it upgrades; its tab shows the line.
    onUpgradeProgress: the.progress,
    allowDestructiveUpgrade: options.allowDestructiveUpgrade === true,
    // The leader's worker delivers the calls transitions queued (every 30 s, while a tab is open).
    outbox: {
      intervalMs: 30_000,
      ...(options.callDestinations ? { destinations: options.callDestinations } : {}),
    },
    // Idempotent: only missing accounts are made (hashing passwords costs a few hundred ms).
    ...(options.seedDemoAccounts ? { demo: 'accounts' as const } : {}),
    ...(options.demoPeople ? { demoPeople: options.demoPeople } : {}),
  });
}
