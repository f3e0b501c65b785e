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
 * The payload keys of `call` the database fills from `entity`'s committed row when a transition of
 * it queues the call, each with the field it reads (`id` for the row's id): `id` and `<entity>Id`,
 * and any key that names a field of the entity (files excepted). The client gives the other keys.
 *
 * @example
 * serverPayloadKeys(helpdesk, 'ticket', 'notifyRequester'); // [['ticketId', 'id']]
 */
export function serverPayloadKeys(spec: AppSpec, entity: string, call: string): [string, string][] {
  const c = Object.hasOwn(spec.calls.declared, call) ? spec.calls.declared[call] : undefined;
  const e = spec.entities[entity];
  if (!c || !e) return [];
  const out: [string, string][] = [];
  for (const raw of Object.keys(c.payload)) {
    const key = raw.endsWith('?') ? raw.slice(0, -1) : raw;
    if (key === 'id' || key === `${entity}Id`) out.push([key, 'id']);
    else if (Object.hasOwn(e.fields, key) && e.fields[key]?.type !== 'file') out.push([key, key]);
  }
  return out;
}
