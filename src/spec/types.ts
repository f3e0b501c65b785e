/**
 * The nine sections of a Ninefold application specification, as plain data.
 *
 * Everything here is JSON-serialisable: rules are strings in the rule language
 * (see `src/rules`), references between sections are by name. The generic
 * parameters exist only so `defineApp` can check names at compile time; the
 * runtime validator (`validateSpec`) checks the same things for `.json` files.
 */

/** Field types. `user` references the profile entity (the signed-in people). */
export type FieldType =
  | 'text'
  | 'longtext'
  | 'email'
  | 'number'
  | 'integer'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'status'
  | 'ref'
  | 'user'
  | 'file'
  | 'tags';

/**
 * One value of an enum/tags field written as an object: a label for people and a display colour
 * (a Mantine colour name such as `red`, or any CSS colour). A plain string is the same as `{ value }`.
 */
export interface EnumValueSpec {
  /** The stored value: any non-empty text (`in-review`, `on hold`) or a number (`45`, stored as `'45'`). */
  value: string | number;
  label?: string;
  color?: string;
}

export interface FieldSpec {
  type: FieldType;
  label?: string;
  help?: string;
  required?: boolean;
  /** A literal, or one of the rule words `me` / `now` / `today`. */
  default?: string | number | boolean | null;
  /**
   * No two rows hold the same value. `'ignoreCase'` (text fields): values that differ only in
   * case are the same (`Ada@x.org` and `ada@x.org`), compared as Postgres `lower` compares them.
   */
  unique?: boolean | 'ignoreCase';
  /** For `ref`: the entity referenced. */
  ref?: string;
  /** For `ref`/`user`: what happens to this row when the referenced row is deleted. */
  onDelete?: 'cascade' | 'restrict' | 'set null';
  /** For `user`: the creating user becomes this field's value and it can never change. */
  owner?: boolean;
  /** For `enum` and `tags`: the allowed values (names, or `{ value, label?, color? }`). */
  values?: readonly (string | number | EnumValueSpec)[];
  /** For `money`: the field (on the same entity) holding the currency code. */
  currencyField?: string;
  /**
   * For `money`: the currency of every amount in this field, an ISO 4217 code (`EUR`) or the name
   * of a constant holding one. Cells and messages show it; computed amounts round to its minor unit.
   */
  currency?: string;
  /**
   * A value the server computes and clients only read: a rule expression over the row (its
   * fields, one-hop references, constants, `me`, `now`), recomputed on every insert and update,
   * and when a field it reads through a reference changes on the referenced row
   * (`cost: { type: 'money', computed: 'hours * task.rate' }`). Money is rounded to its currency's
   * minor unit, half away from zero. A client's write of it is refused (FIELD_NOT_WRITABLE).
   */
  computed?: string;
  /**
   * Who may read the value, a row rule over the row and `me` (`'me is orgAdmin'`,
   * `'patient = me or me is staff'`): on a row the caller may read, the field shows its value where
   * the rule holds and nothing otherwise, on every path (the row, lists, filters, sorting, search,
   * history, error parameters). Rules that must see every row (limits, "no two overlap") still
   * read it on the server. Absent: whoever reads the row reads the field.
   */
  read?: string;
  /** For `file`: the parent entity field pointing back; files live in their own rows. */
  accept?: readonly string[];
  /** Shown in lists by default. */
  list?: boolean;
  /**
   * Recorded in the history (entities with states): an edit of this field appends an entry with
   * its new value. On a reference to a parent that has states, adding a row under the parent (a
   * comment, an attachment) appends an entry to the parent's history.
   */
  audited?: boolean;
  /** Excluded from search. Fields of type text/longtext are searched unless set false. */
  search?: boolean;
  /** The field's previous name: `ninefold migrate` renames the column instead of dropping it. */
  renamedFrom?: string;
}

export interface EntitySpec {
  label: string;
  plural?: string;
  /** The field shown as a row's title. */
  title?: string;
  /** Marks the one entity whose rows are the app's users (`id` = auth user id). */
  profile?: boolean;
  /** Rows of this entity are files (name, size, type, content are implied). */
  files?: boolean;
  /** Changes to this entity are pushed live to other sessions. */
  live?: boolean;
  /** The entity's previous name: `ninefold migrate` renames the table instead of dropping it. */
  renamedFrom?: string;
  fields: Record<string, FieldSpec>;
  /**
   * Keys unique over several fields together ("one vote per member per poll"), each with the
   * catalogue code raised when a row would repeat one. A database constraint, so it cannot be raced.
   */
  unique?: readonly UniqueKeySpec[];
}

export interface UniqueKeySpec {
  fields: readonly string[];
  error: string;
  /** Text fields of the key compared ignoring case (`lower(...)`), as a field's `unique: 'ignoreCase'`. */
  ignoreCase?: boolean;
}

export type ScreenKind = 'dashboard' | 'list' | 'detail' | 'form' | 'board' | 'custom' | 'admin';

export interface ScreenSpec {
  route: string;
  kind: ScreenKind;
  title: string;
  /** What the screen shows, in words, for the document. */
  shows?: string;
  entity?: string;
  /** Roles that see this screen in the navigation; others may still be routed here if permitted. */
  nav?: readonly string[];
  /** For list screens: columns, filters and default sort. */
  columns?: readonly string[];
  filters?: readonly string[];
  sort?: string;
  /** For list/board/dashboard: a row rule narrowing what is shown (e.g. `assignee = me`). */
  where?: string;
  /** For related lists on detail screens: `entity.field` pairs. */
  related?: readonly string[];
  /** For form screens: the fields edited, in order. */
  fields?: readonly string[];
  /** For custom screens: the name a component is registered under. */
  component?: string;
  /**
   * For dashboards: the widgets shown, in order, each perhaps for some roles only. Absent: every
   * widget (counts by status, waiting on me, targets) for everyone who opens the dashboard.
   */
  widgets?: readonly DashboardWidgetSpec[];
}

/**
 * What a dashboard widget shows: the rows of the screen's entity counted by state (`byStatus`), the
 * rows waiting on the signed-in person (`waitingOnMe`), or the duration constants worked to (`targets`).
 */
export type DashboardWidgetKind = 'byStatus' | 'waitingOnMe' | 'targets';

/** One widget of a dashboard. */
export interface DashboardWidgetSpec {
  kind: DashboardWidgetKind;
  /**
   * Roles that see the widget, in the shape of a screen's `nav`: granted roles (and those that
   * inherit them) and roles held through a relationship (held on some row). Absent: everyone who
   * opens the dashboard. For anyone else the widget is not shown and its rows are not asked for.
   */
  roles?: readonly string[];
}

export interface StateSpec {
  label?: string;
  final?: boolean;
  description?: string;
  /**
   * Whose turn it is in this state: a rule on the row that holds for the people the work waits
   * on (`assignee = me`, `requester = me`, `me is finance`). "Waiting on me" lists use it; a
   * state without it waits on whoever may move it on (a transition they may run).
   */
  waitingOn?: string;
}

export interface TransitionSpec {
  label?: string;
  from: readonly string[];
  to: string;
  roles: readonly string[];
  /** A rule that must hold on the row (and user) for the transition to run. */
  guard?: string;
  /** The catalogue code raised when the guard fails. */
  guardError?: string;
  /**
   * More guards, each with its own code, checked in order after `guard`: the first that fails is
   * the error raised (and the reason the browser shows), so the user is told the right reason.
   */
  guards?: readonly { rule: string; error: string }[];
  /** Fields the user must supply; they are written to the row (and the history input). */
  input?: readonly string[];
  /**
   * Fields the transition also asks for but may be left empty (a rating's comment): a value given
   * is written to the row (and the history input); an empty one writes null; one not sent leaves
   * the field as it is.
   */
  optionalInput?: readonly string[];
  /** Fields set on the way: value is a rule expression (`me`, `now`, `null`, a constant...). */
  set?: Record<string, string>;
  /** Ask for confirmation in the UI. */
  confirm?: boolean;
  /** A declared call made after the transition succeeds. */
  calls?: readonly string[];
  /**
   * The transition happens by itself once this instant has passed: a rule on the row giving a date
   * or a date and time (`dueDate + days(1)`, `startOfDay(dueDate + days(1))`, `endsAt`). A row in a
   * `from` state whose instant is not after the clock moves to `to` with the system as the actor
   * (history `actor` empty), when its guards hold without a user. `roles` may then be empty (only
   * time moves it) or name people who may also run it early. No `input`: nobody is asked.
   */
  after?: string;
}

/** A state a new row starts in when a rule holds on it (see `EntityStatesSpec.initialWhen`). */
export interface InitialStateSpec {
  state: string;
  /** A rule on the new row as it will be stored (its references, the creating user, `now`). */
  when: string;
}

export interface EntityStatesSpec {
  field: string;
  /** The state a new row starts in (when no rule of `initialWhen` holds). */
  initial: string;
  /**
   * States chosen by a rule over the new row, checked in order: the first whose `when` holds is
   * the state the row starts in, else `initial` ("an order starts approved when its total is under
   * its department's approval limit, otherwise pending"). The database sets it on insert; a
   * client cannot choose it.
   */
  initialWhen?: readonly InitialStateSpec[];
  states: Record<string, StateSpec>;
  transitions: Record<string, TransitionSpec>;
  /** States removed from the spec → the state their rows move to (`ninefold migrate`). */
  removedStates?: Record<string, string>;
}

/** A rule on one field. Exactly one of the constraint keys is used. */
export interface FieldRuleSpec {
  kind: 'field';
  field: string;
  /** Numbers: literal or a constant name. */
  minLength?: number | string;
  maxLength?: number | string;
  min?: number | string;
  max?: number | string;
  pattern?: string;
  format?: 'email' | 'url' | 'phone' | 'currency';
  error: string;
}

/** A rule over the row (cross-field) or over related rows (cross-row, with `count(...)`). */
export interface RowRuleSpec {
  kind: 'row';
  /** The rule must hold. */
  rule: string;
  /** Only checked when this holds (e.g. only once submitted). */
  when?: string;
  /** The field the message attaches to in forms. */
  field?: string;
  /**
   * Checked when the row is created and when an update changes `field`, not on other writes: for
   * a rule on the value as it is written (`dueAt >= now`, "no past due date"), which time passing
   * would otherwise turn against every later write of the row (solving an overdue ticket).
   */
  onChange?: boolean;
  error: string;
}

export type ValidationRuleSpec = FieldRuleSpec | RowRuleSpec;

export interface RoleSpec {
  label: string;
  description?: string;
  inherits?: readonly string[];
  /** Users who sign up get this role. */
  signup?: boolean;
  /**
   * A role held through a relationship, not granted: for the rows of (or under) one entity. See
   * `RoleThroughSpec`. Such a role has no holders of its own, no `inherits` and no `signup`.
   */
  through?: RoleThroughSpec;
}

/**
 * How a relationship role is held. Two forms:
 * - a person field of the scope entity: `{ entity: 'project', field: 'lead' }`, the project's lead
 *   holds the role on that project (and on the rows under it);
 * - a membership entity: `{ entity: 'membership', user: 'person', scope: 'team', role: 'role',
 *   values: ['member', 'owner'] }`, a person holds the role on the team a membership row of theirs
 *   names (with `role` in `values`, when given), and on the rows under that team.
 * A row is under the scope entity when it has one reference field to it; the permissions the role
 * is given apply to the rows where it holds.
 */
export interface RoleThroughSpec {
  entity: string;
  /** Field form: the `user` field of `entity` naming the holder. */
  field?: string;
  /** Membership form: the `user` field of the membership naming the person. */
  user?: string;
  /** Membership form: the `ref` field of the membership naming the scope row (a team). */
  scope?: string;
  /** Membership form: the membership's `enum` field holding the person's role there. */
  role?: string;
  /** Membership form: the values of `role` that hold this role (all rows when absent). */
  values?: readonly string[];
}

/** `true` always, `false` never, a string: when the row rule holds. */
export type Permission = boolean | string;

export interface UpdatePermission {
  when: Permission;
  fields: readonly string[];
  /**
   * A rule over the row as it will be after the update (`role != owner or me is orgOwner`): the
   * update is refused, with `error`, when it does not hold on the new values.
   */
  becomes?: string;
  /** The catalogue code raised when `becomes` does not hold (`FORBIDDEN` when absent). */
  error?: string;
}

/**
 * A create granted when `when` holds on the new row, and refused with `error` (a catalogue code)
 * when `becomes` does not: `{ when: 'me is orgAdmin', becomes: 'role != owner or me is orgOwner',
 * error: 'ONLY_OWNER_MAKES_OWNER' }`. Both read the new row; `when` failing is a bare refusal
 * (FORBIDDEN), `becomes` failing says which rule.
 */
export interface CreatePermission {
  when: Permission;
  becomes: string;
  /** The catalogue code raised when `becomes` does not hold (`FORBIDDEN` when absent). */
  error?: string;
}

export interface EntityPermissions {
  read?: Permission;
  create?: Permission | CreatePermission;
  update?: UpdatePermission | false;
  delete?: Permission;
}

export interface RolesSpec {
  roles: Record<string, RoleSpec>;
  permissions: Record<string, Record<string, EntityPermissions>>;
}

/** A payload/response shape: field name → type, `?` suffix on the name for optional. */
export type ShapeSpec = { [name: string]: ShapeType };
export type ShapeType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'datetime'
  | 'uuid'
  | 'email'
  | readonly [ShapeType]
  | ShapeSpec;

export interface DeclaredCallSpec {
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path shape with `:params`, relative to the service. */
  path: string;
  /** Which hosted service: an Edge Function name or an external host name. */
  service: string;
  payload: ShapeSpec;
  response: ShapeSpec;
  roles: readonly string[];
  /** Catalogue code for a failed call. */
  error: string;
  /**
   * How the database fills the payload when a transition queues the call (payload key → source),
   * over the row the transition leaves. A key filled here is the database's alone: a client can
   * never choose its value. Keys named `id`, `<entity>Id` or after a field of the row are filled
   * from the row without being listed. See `PayloadFill`.
   */
  fill?: Record<string, PayloadFill>;
}

/**
 * One payload key's source, read on the transitioned row:
 * - a value in the rule language: a field (`title`), a one-hop reference (`requester.email`), a
 *   constant, a literal (`'EUR'`, `42`), `me` or `now`;
 * - text with `{placeholders}`, each a value as above (`Your ticket "{title}" was solved`): a
 *   text with at least one `{…}` is a template, anything else a value;
 * - `{ rows, fill }` for a list of objects: one item per row of the child entity `rows` that
 *   references the transitioned row (oldest first), each item filled by `fill` over the child row
 *   (item keys named after a field of the child are filled from it without being listed).
 */
export type PayloadFill = string | { rows: string; fill?: Record<string, string> };

export interface CallsSpec {
  /** Derived calls (list, get, create, update, delete, transitions) are implied by entities and states. */
  declared: Record<string, DeclaredCallSpec>;
}

export type Severity = 'error' | 'warning' | 'info';

export interface ErrorSpec {
  /** Template with `{placeholders}` naming constants or fields. */
  message: string;
  severity: Severity;
  /** `entity.field` the message belongs to, shown inline in forms. */
  field?: string;
  /**
   * Parameters the server sends with the error, each placeholder name → where its value comes
   * from, in the row rules that raise the code: `date` (a field of the row written),
   * `other.start` (a field of the row the rule's `count` found, the one that made it fail),
   * `sum` or `count` (the value of the rule's one `sum(...)` or `count(...)`, over the rows the
   * caller may read). Constants need no declaration. See docs/rule-language.md, "Messages".
   */
  params?: Record<string, string>;
}

export type ConstantValue = number | string | boolean | readonly string[];

/**
 * A constant holding a point or length of time, or the app's time zone; its `value` is then text
 * in that form. At most one constant is a `timezone`: the zone `hour`, `weekday`, `startOfDay` and
 * `date(t)` read wall-clock time in (UTC when there is none).
 */
export type TemporalConstantType = 'date' | 'datetime' | 'duration' | 'timezone';

export interface ConstantSpec {
  /**
   * Text, number, boolean or list by default. `date` (`"2027-06-30"`), `datetime`
   * (`"2027-06-30T18:00:00Z"`, zone required) or `duration` (ISO 8601: `"P3D"`, `"PT2H30M"`)
   * make a text value a point or a length of time that rules compare with `now`/`today`;
   * `timezone` (an IANA name such as `"Europe/Berlin"`) makes it the app's time zone.
   */
  type?: TemporalConstantType;
  value: ConstantValue;
  label: string;
  /**
   * days, hours, minutes, bytes, MB, count, percent, a currency code for money, or `currency`: an
   * amount in the currency of the money it bounds (a rate's, shown "at most ¥500" on a yen rate).
   */
  unit?: string;
}

export interface PurposeSpec {
  name: string;
  summary: string;
  users: readonly string[];
}

/** The whole specification: nine sections, in DESIGN.md's order. */
export interface AppSpec {
  purpose: PurposeSpec;
  screens: Record<string, ScreenSpec>;
  entities: Record<string, EntitySpec>;
  states: Record<string, EntityStatesSpec>;
  validation: Record<string, readonly ValidationRuleSpec[]>;
  roles: RolesSpec;
  calls: CallsSpec;
  errors: Record<string, ErrorSpec>;
  constants: Record<string, ConstantSpec>;
  /**
   * Optional: the spec's own texts in other languages. Locale (`de`) → English text as the app
   * shows it (a label, a state, an error message; a name without a label as it is spelled out,
   * `waiting_on_customer` → `Waiting on customer`) → that text in the locale. Not a tenth
   * section of rules: nothing in it changes what the app enforces. See docs/i18n.md.
   */
  translations?: Record<string, Record<string, string>>;
}

/** The order of the nine sections. */
export const SECTIONS = [
  'purpose',
  'screens',
  'entities',
  'states',
  'validation',
  'roles',
  'calls',
  'errors',
  'constants',
] as const satisfies readonly (keyof AppSpec)[];
