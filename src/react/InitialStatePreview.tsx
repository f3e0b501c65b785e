import { Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { stateLabel } from '../runtime/availableTransitions.ts';
import { computedValues } from '../runtime/computedValues.ts';
import { hopData, initialStateHops, initialStateOf } from '../runtime/initialState.ts';
import { ui } from '../runtime/uiText.ts';
import { useAppCore, useRuntime } from './context.ts';
import { rowQuery } from './hooks.ts';

/**
 * On a create form of an entity whose first state is chosen by a rule (`initialWhen`): the state
 * the new row will start in, worked out as the database will, from the form's values and the rows
 * it references (loaded here). When a rule reads what the browser cannot see (other rows, a
 * referenced row it may not read), it says the state is chosen on saving instead of guessing.
 */
export function InitialStatePreview({ entity, values }: { entity: string; values: Record<string, unknown> }) {
  const { model, user } = useRuntime();
  const { backend } = useAppCore();
  const hops = useMemo(() => initialStateHops(model, entity), [model, entity]);
  const wanted = (hops ?? []).flatMap((h) => {
    const id = values[h.field];
    return typeof id === 'string' && id !== '' ? [{ entity: h.entity, id }] : [];
  });
  const loaded = useQueries({
    queries: wanted.map((w) => rowQuery(backend, w.entity, w.id)),
  });
  if ((model.machines.get(entity)?.initialRules.length ?? 0) === 0) return null;
  const rows = new Map<string, Record<string, unknown>>();
  wanted.forEach((w, i) => {
    const r = loaded[i]?.data;
    if (r) rows.set(`${w.entity}/${w.id}`, r);
  });
  const complete = hops !== null && rows.size === wanted.length;
  // The rules see the computed fields as the database's trigger does (worked out before them; one
  // that needs rows the browser lacks stays unknown, as in the form's own checks).
  const row = { ...values, ...computedValues(model, entity, values, user) };
  const state = complete ? initialStateOf(model, entity, { user, row, data: hopData(rows) }) : 'undecidable';
  return (
    <Text size="sm" c="dimmed" aria-live="polite" data-testid="initial-state">
      {state === undefined || state === 'undecidable'
        ? ui('startsAsUnknown')
        : ui('startsAs', { state: stateLabel(model, entity, state) })}
    </Text>
  );
}
