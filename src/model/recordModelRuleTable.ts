import type { AppSpec } from '../spec/types.ts';
import { recordingChecks } from './modelRuleCheck.ts';
import type { ModelRuleTable } from './modelRuleTable.ts';
import { resolve } from './resolve.ts';

/**
 * Every rule check the model of `spec` makes, made now (at build time): a copy of the spec is
 * resolved while the checks are recorded, and every part of the model read, the parts it
 * computes on their first read too (lazyField.ts).
 *
 * @example
 * recordModelRuleTable(helpdesk)[modelRuleKey('requester = me', { entity: 'ticket' })]?.ok; // true
 */
export function recordModelRuleTable(spec: AppSpec): ModelRuleTable {
  const table: ModelRuleTable = {};
  recordingChecks(
    (key, check) => {
      table[key] = check;
    },
    () => readAll(resolve(structuredClone(spec))),
  );
  return table;
}

/** Reads every property of `value`, deep (so that each lazy part computes). */
export function readAll(value: unknown, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (value instanceof Map) for (const v of value.values()) readAll(v, seen);
  else if (value instanceof Set) for (const v of value) readAll(v, seen);
  else for (const k of Object.keys(value)) readAll((value as Record<string, unknown>)[k], seen);
}
