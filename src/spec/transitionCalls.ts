import type { AppSpec } from './types.ts';

/**
 * The declared calls some transition lists, each with its transitions (`ticket.solve`). Such a
 * call is queued by its transition when it commits (the outbox), never on a client's request.
 *
 * @example
 * transitionCalls(helpdesk); // Map { 'notifyRequester' => ['ticket.solve'] }
 */
export function transitionCalls(spec: AppSpec): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [entity, st] of Object.entries(spec.states))
    for (const [name, tr] of Object.entries(st.transitions))
      for (const call of tr.calls ?? []) out.set(call, [...(out.get(call) ?? []), `${entity}.${name}`]);
  return out;
}
