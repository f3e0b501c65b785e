import { computedHops } from '../../src/model/computedDependents.ts';
import { resolve } from '../../src/model/resolve.ts';
import type { DataContext } from '../../src/rules/index.ts';
import { computedValues } from '../../src/runtime/computedValues.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { FieldRow } from '../enforcement/support/model.ts';
import type { SeedUser } from '../enforcement/support/seed.ts';

/** The same stored value: numbers read back as text (`numeric`) compare by value, as SQL does. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return String(a) === String(b) || (Number(a) === Number(b) && !Number.isNaN(Number(a)));
}

/** `data` with `row` (a row of `entity`) as it is after the write. */
export function withRow(data: DataContext, entity: string, row: FieldRow): DataContext {
  return {
    ...data,
    rows: (e) => data.rows(e).map((r) => (e === entity && r.id === row.id ? row : r)),
    get: (e, id) => (e === entity && id === row.id ? row : data.get(e, id)),
  };
}

/**
 * The rows the database rewrites after a row of `entity` changes from `before` to `after`
 * (src/sql/emitRecompute.ts): every row referencing it whose computed fields read a changed field
 * through that reference, recomputed on `data` (every row: the rewrite is the owner's), chains
 * followed. Each is checked by its own rules; one broken refuses the whole write.
 */
export function recomputedRows(
  spec: AppSpec,
  entity: string,
  before: FieldRow,
  after: FieldRow,
  user: SeedUser,
  data: DataContext,
): { entity: string; row: FieldRow }[] {
  const model = resolve(spec);
  const out: { entity: string; row: FieldRow }[] = [];
  const now = withRow(data, entity, after);
  for (const h of computedHops(model)) {
    if (h.target !== entity || h.fields.every((f) => same(before[f], after[f]))) continue;
    for (const c of data.rows(h.entity)) {
      if (c[h.reference] !== before.id) continue;
      const row = {
        ...c,
        ...computedValues(model, h.entity, c, { id: user.id, roles: user.roles }, { data: now }),
      };
      out.push({ entity: h.entity, row }, ...recomputedRows(spec, h.entity, c, row, user, now));
    }
  }
  return out;
}
