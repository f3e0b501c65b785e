import { type Diagnostic, SpecError } from '../diagnostics.ts';
import type { FieldTsWord } from './fieldTypes.ts';
import { checkSpecCharacters } from './specCharacters.ts';
import type {
  AppSpec,
  CallsSpec,
  ConstantSpec,
  DashboardWidgetSpec,
  DeclaredCallSpec,
  EntitySpec,
  ErrorSpec,
  FieldSpec,
  FieldType,
  Permission,
  PurposeSpec,
  RoleSpec,
  ScreenSpec,
  StateSpec,
} from './types.ts';

type Entities = Record<string, EntitySpec>;
type FieldsOf<E extends Entities, K extends keyof E> = Extract<keyof E[K]['fields'], string>;
type Names<T> = Extract<keyof T, string>;

/** TypeScript type of a value stored in a field of the given type. */
export type ValueOf<F extends FieldSpec> = F['type'] extends 'enum' | 'status'
  ? F['values'] extends readonly (infer V)[]
    ? V extends { value: infer X }
      ? TextOf<X>
      : TextOf<V>
    : string
  : FieldValue<F['type']>;

/** Enum columns store text: a number value (`45`) is read back as `'45'`. */
type TextOf<V> = V extends number ? `${V}` : V;

/** A stored value's TypeScript type, as the field-type registry names it. */
interface TsOfWord {
  string: string;
  number: number;
  boolean: boolean;
  'string[]': string[];
}

type FieldValue<T extends FieldType> = TsOfWord[FieldTsWord<T>];

type Required<F extends FieldSpec> = F['required'] extends true
  ? true
  : F['owner'] extends true
    ? true
    : false;

/** The row type of one entity: its fields plus the columns every table has. */
type EntityRow<E extends EntitySpec> = {
  id: string;
  createdAt: string;
  updatedAt: string;
  version: number;
} & {
  -readonly [K in keyof E['fields'] as Required<E['fields'][K]> extends true ? K : never]: ValueOf<
    E['fields'][K]
  >;
} & {
  -readonly [K in keyof E['fields'] as Required<E['fields'][K]> extends true ? never : K]: ValueOf<
    E['fields'][K]
  > | null;
};

/** The names a record declares, without the `string` index signature `AppSpec` brings. */
export type KnownKeys<T> = Extract<keyof { [K in keyof T as string extends K ? never : K]: 0 }, string>;

/**
 * The row type of an entity: `RowOf<typeof app, 'ticket'>`, or of an entity spec itself
 * (`RowOf<typeof app.entities.ticket>`).
 */
export type RowOf<
  A extends AppSpec | EntitySpec,
  K extends A extends AppSpec ? KnownKeys<A['entities']> : never = never,
> = A extends AppSpec ? EntityRow<A['entities'][K]> : A extends EntitySpec ? EntityRow<A> : never;

/** Row types of every entity of an app, keyed by entity name. */
export type RowsOf<A extends AppSpec> = { [K in keyof A['entities']]: EntityRow<A['entities'][K]> };

interface TypedTransition<
  E extends Entities,
  K extends keyof E,
  S extends string,
  R extends string,
  Err extends string,
  Calls extends string,
> {
  label?: string;
  from: readonly S[];
  to: S;
  roles: readonly R[];
  guard?: string;
  guardError?: Err;
  /** A rule giving an instant: the transition happens by itself once it has passed. */
  after?: string;
  input?: readonly FieldsOf<E, K>[];
  optionalInput?: readonly FieldsOf<E, K>[];
  set?: { [F in FieldsOf<E, K>]?: string };
  confirm?: boolean;
  calls?: readonly Calls[];
}

interface TypedStates<
  E extends Entities,
  K extends keyof E,
  S extends Record<string, StateSpec>,
  R extends string,
  Err extends string,
  Calls extends string,
> {
  field: FieldsOf<E, K>;
  initial: Names<S>;
  initialWhen?: readonly { state: Names<S>; when: string }[];
  states: S;
  transitions: Record<string, TypedTransition<E, K, Names<S>, R, Err, Calls>>;
  removedStates?: Record<string, Names<S>>;
}

type TypedValidationRule<E extends Entities, K extends keyof E, Err extends string, C extends string> =
  | {
      kind: 'field';
      field: FieldsOf<E, K>;
      minLength?: number | C;
      maxLength?: number | C;
      min?: number | C;
      max?: number | C;
      pattern?: string;
      format?: 'email' | 'url' | 'phone' | 'currency';
      error: Err;
    }
  | { kind: 'row'; rule: string; when?: string; field?: FieldsOf<E, K>; onChange?: boolean; error: Err };

type TypedEntityPermissions<E extends Entities, K extends keyof E, Err extends string> = {
  read?: Permission;
  create?: Permission | { when: Permission; becomes: string; error?: Err };
  update?: { when: Permission; fields: readonly FieldsOf<E, K>[]; becomes?: string; error?: Err } | false;
  delete?: Permission;
};

type TypedErrors<E extends Entities> = Record<
  string,
  Omit<ErrorSpec, 'field'> & { field?: { [K in Names<E>]: `${K}.${FieldsOf<E, K>}` }[Names<E>] }
>;

/** A payload's key names, without the `?` of optional ones. */
type PayloadKeys<S> = { [P in Extract<keyof S, string>]: P extends `${infer N}?` ? N : P }[Extract<
  keyof S,
  string
>];

/** A call's `fill`: only keys of its payload, and lists from an entity of the app. */
type TypedFill<E extends Entities, S> = {
  [P in PayloadKeys<S>]?: string | { rows: Names<E>; fill?: Record<string, string> };
};

/**
 * A declared call as written: roles and error code of the app, `fill` keys of its own payload.
 * Homomorphic in the call (not `Omit`), so TypeScript infers the call's payload from what is written.
 */
type TypedCall<Call, E extends Entities, R extends string, Err extends string> = {
  [P in keyof Call]: P extends 'roles'
    ? readonly R[]
    : P extends 'error'
      ? Err
      : P extends 'fill'
        ? Call extends { payload: infer S }
          ? TypedFill<E, S> & { [X in Exclude<keyof Call[P], PayloadKeys<S>>]: never }
          : never
        : Call[P];
};

/**
 * The input `defineApp` accepts: an `AppSpec` whose cross-references are checked by the compiler.
 * States, validation and permissions must name existing entities, fields, roles, states and error codes.
 */
export interface AppInput<
  E extends Entities,
  R extends Record<string, RoleSpec>,
  Err extends TypedErrors<E>,
  C extends Record<string, ConstantSpec>,
  D extends Record<string, DeclaredCallSpec>,
  St extends { [K in keyof E]?: Record<string, StateSpec> },
> {
  purpose: PurposeSpec;
  screens: Record<
    string,
    Omit<ScreenSpec, 'entity' | 'nav' | 'widgets'> & {
      entity?: Names<E>;
      nav?: readonly Names<R>[];
      widgets?: readonly (Omit<DashboardWidgetSpec, 'roles'> & { roles?: readonly Names<R>[] })[];
    }
  >;
  entities: E;
  states: {
    [K in keyof St & keyof E]: TypedStates<E, K, NonNullable<St[K]>, Names<R>, Names<Err>, Names<D>>;
  };
  validation: { [K in keyof E]?: readonly TypedValidationRule<E, K, Names<Err>, Names<C>>[] };
  roles: {
    roles: { [K in keyof R]: Omit<RoleSpec, 'inherits'> & { inherits?: readonly Names<R>[] } };
    permissions: { [Role in keyof R]?: { [K in keyof E]?: TypedEntityPermissions<E, K, Names<Err>> } };
  };
  calls: Omit<CallsSpec, 'declared'> & {
    declared: {
      [K in keyof D]: TypedCall<D[K], E, Names<R>, Names<Err>>;
    };
  };
  errors: Err;
  constants: C;
  /** The app's texts in other languages, keyed by the English text (see docs/i18n.md). */
  translations?: Record<string, Record<string, string>>;
}

/** What `defineApp` returns: the same data, typed as precisely as it was written. */
export type App<
  E extends Entities = Entities,
  C extends Record<string, ConstantSpec> = Record<string, ConstantSpec>,
  Err extends Record<string, ErrorSpec> = Record<string, ErrorSpec>,
> = AppSpec & { entities: E; constants: C; errors: Err };

/**
 * Declares an application. The result is the specification itself (plain data), with
 * each entity's row type, field names and constant names known to the compiler.
 *
 * @example
 * const app = defineApp({ purpose: {...}, screens: {...}, entities: { ticket: { label: 'Ticket',
 *   fields: { title: { type: 'text', required: true } } } }, ... });
 * type Ticket = RowOf<typeof app.entities.ticket>; // { id: string; title: string; ... }
 */
export function defineApp<
  const E extends Entities,
  const R extends Record<string, RoleSpec>,
  const Err extends TypedErrors<E>,
  const C extends Record<string, ConstantSpec>,
  const D extends Record<string, DeclaredCallSpec>,
  // Defaults to no states: an app whose entities have no lifecycle writes `states: {}`.
  const St extends { [K in keyof E]?: Record<string, StateSpec> } = Record<never, never>,
>(spec: AppInput<E, R, Err, C, D, St> & { states: { [K in keyof St]: { states: St[K] } } }): App<E, C, Err> {
  // The one check that cannot wait for the loader: a control character in any text (finding
  // 28.1) is refused where the spec is written, so no tool ever prints it into SQL or code.
  const refused: Diagnostic[] = [];
  checkSpecCharacters(spec, refused);
  if (refused.length > 0) throw new SpecError(refused);
  return spec as unknown as App<E, C, Err>;
}

/** Names of the constants of an app. */
export type ConstantNames<A extends App> = Names<A['constants']>;
/** Names of the fields of one entity of an app. */
export type FieldNames<A extends App, K extends keyof A['entities']> = Names<A['entities'][K]['fields']>;
