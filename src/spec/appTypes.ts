import type { App, KnownKeys, RowOf } from './defineApp.ts';

// Types only: what the typed backend and the typed hooks (`typedBackend`, `appHooks`) read of an
// app's literal type (`typeof app`, the result of `defineApp`). Nothing here runs.

/** The entity names an app declares. */
export type EntityName<A extends App> = KnownKeys<A['entities']>;

/** The transition names of an entity of an app (never for an entity without states). */
export type TransitionName<A extends App, E extends string> =
  E extends KnownKeys<A['states']> ? KnownKeys<A['states'][E]['transitions']> : never;

/** A row of an entity of an app. */
export type EntityRow<A extends App, E extends keyof A['entities']> = RowOf<A['entities'][E]>;

/** What a caller may write to a row: its fields (the database owns id, timestamps and version). */
export type Writable<R> = Partial<Omit<R, 'id' | 'createdAt' | 'updatedAt' | 'version'>>;
