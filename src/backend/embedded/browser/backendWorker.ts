/**
 * The embedded backend's worker: PGlite and the whole backend (data, auth, files, calls) run here;
 * the tab sends one message per port call (see serveBackend.ts and createBrowserBackend.ts).
 */
import { serveBackend } from './serveBackend.ts';

serveBackend(self as unknown as Parameters<typeof serveBackend>[0]);
