import type { AppModel } from '../model/appModel.ts';

export interface PendingSum {
  /** The child entity summed (`line`), its summed field (`amount`) and its reference here (`claim`). */
  entity: string;
  field: string;
  parentField: string;
}

const SUM = /^\s*sum\(\s*(\w+)\.(\w+)\s+where\s+(\w+)\s*=\s*this\s*\)\s*$/;

/**
 * A field a transition will set to a sum over child rows (`total: 'sum(line.amount where claim =
 * this)'` on submit) while the row is still in a state that transition leaves: until then the
 * stored value is stale (empty, or the sum at the last submit), so screens show the running sum
 * of the children instead. Undefined when the field is not such a sum, or no longer pending.
 *
 * @example
 * pendingSum(resolve(expenses), 'claim', 'total', { status: 'draft' }); // { entity: 'line', field: 'amount', parentField: 'claim' }
 */
export function pendingSum(
  model: AppModel,
  entity: string,
  field: string,
  row: Readonly<Record<string, unknown>>,
): PendingSum | undefined {
  const machine = model.machines.get(entity);
  if (!machine) return undefined;
  const state = String(row[machine.field] ?? '');
  for (const t of model.tables.get(entity)?.transitions ?? []) {
    const expr = t.set[field];
    if (expr === undefined || !t.from.includes(state)) continue;
    const m = SUM.exec(expr);
    if (!m) continue;
    const [, child = '', childField = '', parentField = ''] = m;
    const fields = model.tables.get(child)?.spec.fields;
    const ref = fields?.[parentField];
    if (!ref || ref.ref !== entity || !fields?.[childField]) continue;
    return { entity: child, field: childField, parentField };
  }
  return undefined;
}
