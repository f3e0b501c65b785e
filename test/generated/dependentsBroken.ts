import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { type DataContext, holds } from '../../src/rules/index.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { fieldsReadThrough, hopsRead, relatesOwnData } from '../../src/sql/emitValidation.ts';
import { readsBeyondRow } from '../../src/sql/typedRule.ts';
import { type FieldRow, rule } from '../enforcement/support/model.ts';
import type { SeedUser } from '../enforcement/support/seed.ts';

/** Whether the rule `text` of `entity` holds on `row` for `user`, reading `data`. */
export function holdsOn(
  spec: AppSpec,
  entity: string,
  text: string,
  row: FieldRow,
  user: SeedUser,
  data: DataContext,
) {
  return holds(rule(spec, entity, text), {
    row,
    user: { id: user.id, roles: user.roles },
    now: new Date(),
    roleClosure: roleClosureOf(spec),
    data,
  });
}

/**
 * The code of a row rule of a row pointing at the written row (a transition or an update) that the change breaks, as the
 * database's revalidation trigger finds it (src/sql/emitValidation.ts, `emitParentRevalidation`):
 * rules relating the child's own data to fields read through the reference, checked only when one
 * of those fields changed.
 */
export function dependentsBroken(
  spec: AppSpec,
  entity: string,
  row: FieldRow,
  after: FieldRow,
  user: SeedUser,
  data: DataContext,
): string | undefined {
  for (const [child, rules] of Object.entries(spec.validation))
    for (const v of rules) {
      if (v.kind !== 'row' || v.onChange) continue;
      const typed = rule(spec, child, v.rule);
      const when = v.when ? rule(spec, child, v.when) : undefined;
      const hops = new Set<string>();
      if (when) hopsRead(when, hops);
      const ruleHops = hopsRead(typed, new Set());
      if (relatesOwnData(typed, ruleHops)) for (const h of ruleHops) hops.add(h);
      // A rule on the row alone is a CHECK, never revalidated.
      if (!readsBeyondRow(typed) && (!when || !readsBeyondRow(when))) continue;
      for (const hop of hops) {
        const f = spec.entities[child]?.fields[hop];
        if (f?.type !== 'ref' || f.ref !== entity) continue;
        const read = fieldsReadThrough(typed, hop, new Set());
        if (when) fieldsReadThrough(when, hop, read);
        if (![...read].some((x) => after[x] !== row[x])) continue;
        for (const c of data.rows(child)) {
          if (c[hop] !== row.id) continue;
          if (v.when && !holdsOn(spec, child, v.when, c, user, data)) continue;
          if (!holdsOn(spec, child, v.rule, c, user, data)) return v.error;
        }
      }
    }
  return undefined;
}
