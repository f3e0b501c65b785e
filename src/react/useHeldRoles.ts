import { useQueries } from '@tanstack/react-query';
import { heldQueries } from '../runtime/relationRolesHeld.ts';
import { useRuntime } from './context.ts';

/**
 * The roles the signed-in user holds for navigation: those granted, then each role held through a
 * relationship that they hold on some row (one row asked per role, nothing counted). Screens in a
 * relationship role's navigation are theirs once the answer says so.
 */
export function useHeldRoles(): readonly string[] {
  const { model, backend, user } = useRuntime();
  const queries = user ? heldQueries(model, user.id) : [];
  const answers = useQueries({
    queries: queries.map((q) => ({
      // Under the entity's key: a change to its rows (a new membership) asks again.
      queryKey: [q.entity, 'heldRole', user?.id ?? '', q.role],
      queryFn: async () =>
        (await backend.data.list(q.entity, { filters: q.filters, limit: 1, count: 'none' })).rows.length > 0,
      staleTime: 60_000,
    })),
  });
  const direct = user?.roles ?? [];
  const through = queries.filter((_, i) => answers[i]?.data === true).map((q) => q.role);
  return through.length === 0 ? direct : [...direct, ...through];
}
