import type { Diagnostic } from '../diagnostics.ts';
import type { AppSpec } from '../spec/types.ts';
import { lintSpec } from './lintSpec.ts';
import { validateSpec } from './validateSpec.ts';

/** What `checkSpec` found: the specification when it has no errors, and every finding. */
export interface CheckResult {
  spec: AppSpec | null;
  diagnostics: Diagnostic[];
}

/**
 * Validates a specification and, when it is valid, lints it. What `ninefold check` runs.
 * Never throws.
 *
 * @example
 * const { spec, diagnostics } = checkSpec(JSON.parse(text));
 */
export function checkSpec(input: unknown): CheckResult {
  const validated = validateSpec(input);
  if (!validated.spec) return validated;
  let lints: Diagnostic[];
  try {
    lints = lintSpec(validated.spec);
  } catch (e) {
    lints = [
      { code: 'spec/invalid-value', severity: 'error', path: '', message: `the lints failed: ${String(e)}` },
    ];
  }
  const diagnostics = [...validated.diagnostics, ...lints];
  return { spec: diagnostics.some((d) => d.severity === 'error') ? null : validated.spec, diagnostics };
}
