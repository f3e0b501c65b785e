import { afterAll, beforeAll } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { authChecks } from './authChecks.ts';
import { type ConformanceOptions, conformanceContext } from './context.ts';
import { dataChecks } from './dataChecks.ts';
import { portChecks } from './portChecks.ts';

export type { ConformanceContext, ConformanceOptions, ConformanceSample, Credentials } from './context.ts';

/**
 * The contract every Backend must keep, written once and run against each adapter, for any spec:
 * the checks read roles, policies, transitions, columns and codes from the spec's model, and the
 * caller names one entity and values for a valid row (`sample`). A spec's own rules (validation
 * codes, guards, file limits, declared calls) are checked by its `scenarios` on the same backend.
 *
 * @example
 * runConformance(helpdesk, { makeBackend, accounts, sample: helpdeskSample, controlsClock: true });
 */
export function runConformance(spec: AppSpec, options: ConformanceOptions): void {
  const { ctx, setBackend } = conformanceContext(resolve(spec), options);
  let made: Awaited<ReturnType<ConformanceOptions['makeBackend']>> | undefined;
  beforeAll(async () => {
    made = await options.makeBackend({ now: () => new Date(ctx.clock.now) });
    setBackend(made);
  }, 120_000);
  afterAll(async () => {
    await made?.close();
  });
  authChecks(ctx);
  dataChecks(ctx);
  portChecks(ctx);
  for (const scenario of options.scenarios ?? []) scenario(ctx);
}
