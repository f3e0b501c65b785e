import { payloadFills } from './callFills.ts';
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

/**
 * The payload keys of `call` the database fills when a transition of `entity` queues the call,
 * each with its source text: the call's `fill`, and `id`, `<entity>Id` and any key that names a
 * field of the entity (files excepted). The client gives only the other keys.
 *
 * @example
 * serverPayloadKeys(helpdesk, 'ticket', 'notifyRequester'); // [['ticketId', 'id'], ['to', 'requester.email'], …]
 */
export function serverPayloadKeys(spec: AppSpec, entity: string, call: string): [string, string][] {
  return payloadFills(spec, entity, call)
    .filter((f) => f.shape !== undefined)
    .map((f) => [f.key, f.source.kind === 'rows' ? f.source.entity : f.source.text]);
}
