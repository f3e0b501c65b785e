import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { BackendErrorOf, ListQuery } from '../backend/types.ts';
import type { EntityName, EntityRow as Row, Writable } from '../spec/appTypes.ts';
import type { App } from '../spec/defineApp.ts';
import { useCreate, useList, useRow, useUpdate } from './hooks.ts';

/** The data hooks typed by an app: entity names checked, rows and errors typed by its spec. */
export interface AppHooks<A extends App> {
  useList<E extends EntityName<A>>(
    entity: E,
    query?: ListQuery,
  ): UseQueryResult<{ rows: Row<A, E>[]; total: number | null }, BackendErrorOf<A>>;
  useRow<E extends EntityName<A>>(
    entity: E,
    id: string | undefined,
  ): UseQueryResult<Row<A, E>, BackendErrorOf<A>>;
  useCreate<E extends EntityName<A>>(
    entity: E,
  ): UseMutationResult<Row<A, E>, BackendErrorOf<A>, Writable<Row<A, E>>>;
  useUpdate<E extends EntityName<A>>(
    entity: E,
  ): UseMutationResult<
    Row<A, E>,
    BackendErrorOf<A>,
    { id: string; version: number; values: Writable<Row<A, E>> }
  >;
}

/**
 * The runtime's data hooks, typed by an app's spec (the same hooks at run time: every port call
 * already returns the spec's rows and rejects with its catalogue codes).
 *
 * @example
 * const { useRow } = appHooks(helpdesk);
 * const { data, error } = useRow('ticket', id); // data?.priority: 'low' | ... ; error?.code: 'TITLE_TOO_SHORT' | ...
 */
export function appHooks<A extends App>(_app: A): AppHooks<A> {
  return {
    useList: (entity, query) => useList(entity as string, query) as never,
    useRow: (entity, id) => useRow(entity as string, id) as never,
    useCreate: (entity) => useCreate(entity as string) as never,
    useUpdate: (entity) => useUpdate(entity as string) as never,
  };
}
