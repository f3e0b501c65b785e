import { renderModelDoc } from '../src/doc/renderDoc.ts';
import { lockJson, lockModel } from '../src/migrate/lockModel.ts';
import { planMigration } from '../src/migrate/planMigration.ts';
import type { AppModel } from '../src/model/appModel.ts';
import { printOpenApi } from '../src/printers/printOpenApi.ts';
import { printTypes } from '../src/printers/printTypes.ts';
import { compileMigration } from '../src/sql/compileMigration.ts';

/** The generated texts of one model, as `ninefold sql`, `types`, `openapi` and `doc` print them. */
export interface ModelTexts {
  sql: string;
  types: string;
  openApi: string;
  doc: string;
}

/**
 * What the command line prints for the model, each by the command's own printer (the studio's
 * SQL is the embedded target's, the one its live app runs).
 */
export function modelTexts(model: AppModel): ModelTexts {
  return {
    sql: compileMigration(model, { target: 'embedded' }),
    types: printTypes(model),
    openApi: printOpenApi(model),
    doc: renderModelDoc(model),
  };
}

/** The change since the last save: nothing, the planner's migration, or its refusal. */
export type SavedChange =
  | { kind: 'none' }
  | { kind: 'savedInvalid' }
  | { kind: 'plan'; changes: string[]; sql: string }
  | { kind: 'refused'; changes: string[]; refused: string[] };

/**
 * What `ninefold migrate` would do from the saved document's model to the current one (its
 * planner, default options: nothing destructive, rows that break a rule refuse it). `saved` is
 * null when the saved document does not resolve (saved with errors).
 *
 * @example
 * changeSinceSave(resolve(saved), resolve(edited)); // { kind: 'plan', changes: ['add field ticket.channel'], sql: '…' }
 */
export function changeSinceSave(saved: AppModel | null, current: AppModel): SavedChange {
  if (!saved) return { kind: 'savedInvalid' };
  const locked = lockModel(saved, 'embedded');
  if (lockJson(locked) === lockJson(lockModel(current, 'embedded'))) return { kind: 'none' };
  const plan = planMigration(locked, current, { target: 'embedded' });
  if (plan.refused.length > 0)
    return { kind: 'refused', changes: plan.changes, refused: plan.refused.map((r) => r.message) };
  return { kind: 'plan', changes: plan.changes, sql: plan.sql };
}
