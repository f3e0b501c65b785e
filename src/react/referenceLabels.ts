import type { QueryClient } from '@tanstack/react-query';
import type { Backend, Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';

/**
 * The ids a page of `entity` rows references, by referenced entity, that `known` does not have
 * yet: the ref and user fields' values (user fields reference the profile entity). The signed-in
 * user is left out of the profile's ids: RefLabel shows "You" without a lookup. Pure.
 *
 * @example
 * missingReferences(resolve(helpdesk), 'ticket', rows, 'u1', () => false);
 * // Map { 'category' => ['c1'], 'person' => ['u2', 'u3'] }
 */
export function missingReferences(
  model: AppModel,
  entity: string,
  rows: readonly Row[],
  me: string | undefined,
  known: (entity: string, id: string) => boolean,
): Map<string, string[]> {
  const profile = model.profile;
  const out = new Map<string, Set<string>>();
  for (const [name, f] of Object.entries(model.tables.get(entity)?.spec.fields ?? {})) {
    const target = f.type === 'ref' ? f.ref : f.type === 'user' ? profile : undefined;
    if (!target) continue;
    for (const row of rows) {
      const v = row[name];
      if (typeof v !== 'string' || v === '') continue;
      if (target === profile && v === me) continue;
      if (known(target, v)) continue;
      const ids = out.get(target) ?? new Set<string>();
      ids.add(v);
      out.set(target, ids);
    }
  }
  return new Map([...out].map(([e, ids]) => [e, [...ids]]));
}

/**
 * Fetches the rows a list page references with one `id in (…)` request per referenced entity
 * and puts each into the row cache under `rowKey`, where RefLabel's `useRow` finds it: without
 * this every distinct requester, assignee and category on a page was a request of its own (each a
 * transaction of several statements). Ids the caller may not read are simply not returned; their
 * labels then ask for themselves (and get NOT_FOUND, shown as empty). Failures are ignored for
 * the same reason.
 *
 * @example
 * await seedReferences(qc, backend, spec, 'ticket', page.rows, user?.id, keys.row);
 */
export async function seedReferences(
  qc: QueryClient,
  backend: Backend,
  model: AppModel,
  entity: string,
  rows: readonly Row[],
  me: string | undefined,
  rowKey: (entity: string, id: string) => readonly unknown[],
): Promise<void> {
  const missing = missingReferences(
    model,
    entity,
    rows,
    me,
    (e, id) => qc.getQueryData(rowKey(e, id)) !== undefined,
  );
  await Promise.all(
    [...missing].map(async ([target, ids]) => {
      try {
        const found = await backend.data.list(target, {
          filters: [{ field: 'id', op: 'in', value: ids }],
          limit: ids.length,
          count: 'none',
        });
        for (const r of found.rows) qc.setQueryData(rowKey(target, r.id), r);
      } catch {
        // Labels fall back to one lookup each.
      }
    }),
  );
}
