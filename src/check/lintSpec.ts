import type { Diagnostic } from '../diagnostics.ts';
import type { AppSpec } from '../spec/types.ts';
import { auditedWithoutHistory } from './lints/auditedWithoutHistory.ts';
import { callRoleGaps } from './lints/callRoleGaps.ts';
import { deadEndStates } from './lints/deadEndStates.ts';
import { deadTransitions } from './lints/deadTransitions.ts';
import { entitiesNotShown } from './lints/entitiesNotShown.ts';
import { guardCountsHiddenRows } from './lints/guardCountsHiddenRows.ts';
import { idleRoles } from './lints/idleRoles.ts';
import { routeParams } from './lints/routeParams.ts';
import { translations } from './lints/translations.ts';
import { undefinedErrors } from './lints/undefinedErrors.ts';
import { undefinedStates } from './lints/undefinedStates.ts';
import { uniqueOnHiddenRows } from './lints/uniqueOnHiddenRows.ts';
import { unknownPlaceholders } from './lints/unknownPlaceholders.ts';
import { unreachableStates } from './lints/unreachableStates.ts';
import { unusedConstants } from './lints/unusedConstants.ts';
import { unusedErrors } from './lints/unusedErrors.ts';
import { updateWithoutRead } from './lints/updateWithoutRead.ts';

/** A lint: a pure function from a (shape-valid) specification to its findings. */
export type Lint = (spec: AppSpec) => Diagnostic[];

/** Every lint, in the order their findings are reported. */
export const LINTS: readonly Lint[] = [
  undefinedStates,
  unreachableStates,
  deadEndStates,
  deadTransitions,
  idleRoles,
  callRoleGaps,
  routeParams,
  entitiesNotShown,
  undefinedErrors,
  unusedErrors,
  unusedConstants,
  unknownPlaceholders,
  updateWithoutRead,
  uniqueOnHiddenRows,
  guardCountsHiddenRows,
  auditedWithoutHistory,
  translations,
];

/**
 * Finds what is legal but likely wrong in a specification: unreachable states, dead
 * transitions, idle roles, unused constants and errors, bad route params...
 * Expects a specification that passed `validateSpec` (or `defineApp`'s types).
 *
 * @example
 * lintSpec(spec).filter((d) => d.severity === 'error'); // []
 */
export function lintSpec(spec: AppSpec): Diagnostic[] {
  return LINTS.flatMap((lint) => lint(spec));
}
