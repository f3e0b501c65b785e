import type { TransitionSpec } from './types.ts';

/** One guard of a transition: its rule, the code raised when it fails, and where it is written. */
export interface GuardSite {
  rule: string;
  error: string | undefined;
  /** Spec path of the rule (relative to the transition). */
  path: string;
  errorPath: string;
}

/**
 * A transition's guards in the order they are checked: `guard`/`guardError` first, then each of
 * `guards`. The first that fails is the one reported, on the server and in the browser.
 *
 * @example
 * transitionGuards({ guards: [{ rule: 'owner = me', error: 'claim.notYours' }], ... });
 * // [{ rule: 'owner = me', error: 'claim.notYours', path: 'guards[0].rule', errorPath: 'guards[0].error' }]
 */
export function transitionGuards(t: Pick<TransitionSpec, 'guard' | 'guardError' | 'guards'>): GuardSite[] {
  const out: GuardSite[] = [];
  if (t.guard !== undefined)
    out.push({ rule: t.guard, error: t.guardError, path: 'guard', errorPath: 'guardError' });
  (t.guards ?? []).forEach((g, i) => {
    out.push({
      rule: g.rule,
      error: g.error,
      // Written out, not built with specShape's `at`: the browser reads guards too, and that
      // module (the spec's shape checks) is not part of the app's first screen.
      path: `guards[${i}].rule`,
      errorPath: `guards[${i}].error`,
    });
  });
  return out;
}
