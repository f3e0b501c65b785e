import type { DemoAccount } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { AppSpec } from '../src/spec/types.ts';

/** What the live app's page says to the studio around it. */
export type PreviewReport =
  | { kind: 'ready'; switchTo: (account: DemoAccount | null) => Promise<void> }
  | { kind: 'failed'; message: string; problems: string[] };

/**
 * The studio's side of the live app (same origin, so the app's page reads it from its parent):
 * the specification to run, the database it runs on and where to report.
 */
export interface StudioHost {
  spec: AppSpec;
  dataDir: string;
  report: (report: PreviewReport) => void;
}

export const HOST_KEY = '__ninefoldStudio';
