import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { effectiveRoles } from './roles.ts';

/**
 * May a person holding `roles` read `field` of `entity` on some row? (`roles`: granted ones and
 * those held through a relationship somewhere, as `useHeldRoles` answers.) A field without a
 * `read` rule: yes. With one: no only when the rule cannot hold on any row for them — it needs a
 * role they do not hold. What depends on the row counts as possible: the server masks the value
 * row by row (src/sql/emitFieldReads.ts), this only keeps columns, filters and sorting on a field
 * they can never read off their screens.
 *
 * @example
 * mayReadField(model, ['member'], 'timeEntry', 'rate'); // false unless `orgAdmin` is held somewhere
 */
export function mayReadField(
  model: Pick<AppModel, 'roles' | 'tables'>,
  roles: readonly string[],
  entity: string,
  field: string,
): boolean {
  const typed = model.tables.get(entity)?.byField.get(field)?.read?.typed;
  if (typed === undefined) return true;
  const held = new Set(effectiveRoles(model, roles));
  return possibly(typed, model, held) !== false;
}

/** The fields of `fields` that `mayReadField` keeps, in order. */
export function readableFields(
  model: Pick<AppModel, 'roles' | 'tables'>,
  roles: readonly string[],
  entity: string,
  fields: readonly string[],
): string[] {
  return fields.filter((f) => mayReadField(model, roles, entity, f));
}

/** Three-valued: true or false when the roles alone decide, undefined when the row does. */
function possibly(t: Typed, model: Pick<AppModel, 'roles'>, held: ReadonlySet<string>): boolean | undefined {
  switch (t.kind) {
    case 'literal':
      return typeof t.value === 'boolean' ? t.value : undefined;
    case 'role': {
      if (t.subject.kind !== 'me') return undefined;
      const has = held.has(t.role);
      // A relationship role held somewhere may or may not hold on a given row.
      const v = model.roles.get(t.role)?.through !== undefined && has ? undefined : has;
      return v === undefined ? undefined : v !== t.negated;
    }
    case 'not': {
      const v = possibly(t.operand, model, held);
      return v === undefined ? undefined : !v;
    }
    case 'binary': {
      if (t.op !== 'and' && t.op !== 'or') return undefined;
      const l = possibly(t.left, model, held);
      const r = possibly(t.right, model, held);
      if (t.op === 'and')
        return l === false || r === false ? false : l === true && r === true ? true : undefined;
      return l === true || r === true ? true : l === false && r === false ? false : undefined;
    }
    default:
      return undefined;
  }
}
