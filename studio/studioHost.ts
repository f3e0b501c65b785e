import type { DemoAccount } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { AppSpec } from '../src/spec/types.ts';

/** Why the live app did not take a spec: the worker's words and the planner's reasons. */
export interface PreviewRefusal {
  message: string;
  problems: string[];
}

/**
 * What the live app's page says to the studio around it. Once ready, `update` runs a new spec in
 * the same page on the same database: resolved with null when the app shows it, with the refusal
 * when the database refused the upgrade (the app keeps the previous spec); it rejects only when
 * the page itself is broken (the studio then reloads it).
 */
export type PreviewReport =
  | {
      kind: 'ready';
      switchTo: (account: DemoAccount | null) => Promise<void>;
      update: (spec: AppSpec) => Promise<PreviewRefusal | null>;
    }
  | ({ kind: 'failed' } & PreviewRefusal);

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
