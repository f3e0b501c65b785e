import type { Diagnostic } from '../diagnostics.ts';
import { checkIdentifierLengths } from '../spec/identifierLengths.ts';
import { checkSpecCharacters } from '../spec/specCharacters.ts';
import { checkRefs } from '../spec/specRefs.ts';
import { appSpecShape, isRecord, report } from '../spec/specShape.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkCallFills } from './checkCallFills.ts';
import { checkErrorParams } from './checkErrorParams.ts';
import { checkComputedCycles } from './computedCycles.ts';
import { checkFieldReads } from './fieldReads.ts';
import { checkRuleSites } from './specRules.ts';

/** What `validateSpec` found: the specification when it has no errors, and every problem. */
export interface ValidationResult {
  spec: AppSpec | null;
  diagnostics: Diagnostic[];
}

/**
 * Checks a specification that did not go through the compiler (`.json`, or `.ts` without
 * `defineApp`'s types): its shape, its names, its cross-references and every rule in it.
 * Never throws: every problem is a diagnostic with a path, a message and, where one helps, a hint.
 *
 * Checks run in three layers, each only when the one before found nothing, so that a later
 * check can rely on the shape the earlier ones guaranteed.
 *
 * @example
 * const { spec, diagnostics } = validateSpec(JSON.parse(text));
 * if (!spec) for (const d of diagnostics) console.error(formatDiagnostic(d));
 */
export function validateSpec(input: unknown): ValidationResult {
  const diagnostics: Diagnostic[] = [];
  try {
    if (!isRecord(input)) {
      report(
        diagnostics,
        'spec/type',
        '',
        'a specification must be an object with nine sections',
        'purpose, screens, entities, states, validation, roles, calls, errors, constants',
      );
      return { spec: null, diagnostics };
    }
    if (!appSpecShape(input, '', diagnostics) || diagnostics.length > 0) return { spec: null, diagnostics };
    // Before anything reads a text: no name, label or rule may carry a line break or control
    // character into the outputs (SQL comments end at a bare \r; see specCharacters.ts).
    checkSpecCharacters(input, diagnostics);
    if (diagnostics.length > 0) return { spec: null, diagnostics };
    const spec = input as unknown as AppSpec;
    checkRefs(spec, diagnostics);
    checkIdentifierLengths(spec, diagnostics);
    if (diagnostics.length > 0) return { spec: null, diagnostics };
    checkRuleSites(spec, diagnostics);
    if (!diagnostics.some((d) => d.severity === 'error')) checkComputedCycles(spec, diagnostics);
    checkFieldReads(spec, diagnostics);
    checkCallFills(spec, diagnostics);
    checkErrorParams(spec, diagnostics);
  } catch (e) {
    // A bug in a check must still come out as data, not as a crash of the caller.
    report(diagnostics, 'spec/invalid-value', '', `the specification could not be checked: ${String(e)}`);
  }
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { spec: failed ? null : (input as AppSpec), diagnostics };
}
