import type { AppModel } from '../model/appModel.ts';

/**
 * The field a related list's quick-add box asks for (`comment.body` under a ticket), or undefined
 * when the child needs the full form: the box asks for one required long text (and flags) only, so
 * a child with any other required field the server will not fill (no default, not the parent
 * reference, the owner or the status, not given by the parent in `draftBase`) would always fail
 * (issue 16, item 9).
 *
 * @example
 * quickAddField(resolve(helpdesk), 'comment', 'ticket', { ticket: 't1' }); // 'body'
 */
export function quickAddField(
  model: AppModel,
  entity: string,
  parentField: string,
  draftBase: Readonly<Record<string, unknown>>,
): string | undefined {
  const e = model.tables.get(entity)?.spec;
  if (!e) return undefined;
  const longText = Object.entries(e.fields).find(([, f]) => f.type === 'longtext' && f.required)?.[0];
  if (longText === undefined) return undefined;
  const machineField = model.machines.get(entity)?.field;
  const filled = Object.entries(e.fields).every(
    ([n, f]) =>
      !f.required ||
      n === longText ||
      n === parentField ||
      n === machineField ||
      f.owner === true ||
      f.type === 'status' ||
      f.type === 'boolean' ||
      f.default !== undefined ||
      draftBase[n] !== undefined,
  );
  return filled ? longText : undefined;
}
