import type { AppSpec } from '../spec/types.ts';

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
 * pendingSum(expenses, 'claim', 'total', { status: 'draft' }); // { entity: 'line', field: 'amount', parentField: 'claim' }
 */
export function pendingSum(
  spec: AppSpec,
  entity: string,
  field: string,
  row: Readonly<Record<string, unknown>>,
): PendingSum | undefined {
  const machine = spec.states[entity];
  if (!machine) return undefined;
  const state = String(row[machine.field] ?? '');
  for (const t of Object.values(machine.transitions)) {
    const expr = t.set?.[field];
    if (expr === undefined || !t.from.includes(state)) continue;
    const m = SUM.exec(expr);
    if (!m) continue;
    const [, child = '', childField = '', parentField = ''] = m;
    const ref = spec.entities[child]?.fields[parentField];
    if (!ref || ref.ref !== entity || !spec.entities[child]?.fields[childField]) continue;
    return { entity: child, field: childField, parentField };
  }
  return undefined;
}
