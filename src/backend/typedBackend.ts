import type { EntityName, EntityRow as Row, TransitionName, Writable } from '../spec/appTypes.ts';
import type { App } from '../spec/defineApp.ts';
import type { Backend, HistoryEntry, ListQuery, ReadOptions } from './types.ts';

/** The data port seen through an app's types: entity names checked, rows typed per entity. */
export interface TypedDataPort<A extends App> {
  list<E extends EntityName<A>>(
    entity: E,
    query?: ListQuery,
    options?: ReadOptions,
  ): Promise<{ rows: Row<A, E>[]; total: number | null }>;
  get<E extends EntityName<A>>(entity: E, id: string): Promise<Row<A, E>>;
  create<E extends EntityName<A>>(entity: E, values: Writable<Row<A, E>>): Promise<Row<A, E>>;
  update<E extends EntityName<A>>(
    entity: E,
    id: string,
    version: number,
    values: Writable<Row<A, E>>,
  ): Promise<Row<A, E>>;
  delete(entity: EntityName<A>, id: string): Promise<void>;
  transition<E extends EntityName<A>>(
    entity: E,
    id: string,
    transition: TransitionName<A, E>,
    input?: Record<string, unknown>,
    version?: number,
  ): Promise<Row<A, E>>;
  history(entity: EntityName<A>, id: string): Promise<HistoryEntry[]>;
}

/** A backend whose data port is typed by an app (`typedBackend(app, backend)`). */
export type TypedBackend<A extends App> = Omit<Backend, 'data'> & { data: TypedDataPort<A> };

/**
 * The same backend, typed by the app's spec: rows are `RowOf<typeof app, E>`, entity and
 * transition names are checked. No wrapper at run time: the port already returns these rows.
 *
 * @example
 * const backend = typedBackend(helpdesk, await loadBackend(helpdesk));
 * const t = await backend.data.get('ticket', id); // t.priority: 'low' | 'normal' | 'high' | 'urgent'
 */
export function typedBackend<A extends App>(_app: A, backend: Backend): TypedBackend<A> {
  return backend as unknown as TypedBackend<A>;
}
