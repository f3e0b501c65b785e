import {
  blankConstraintName,
  columnName,
  foreignKeyName,
  historyTableName,
  indexName,
  policyName,
  quoteIdent,
  tableName,
  transitionFunctionName,
  uniqueConstraintName,
  uniqueKeyConstraintName,
  validationConstraintName,
  valuesConstraintName,
} from '../naming.ts';
import type { Expr, Typed } from '../rules/ast.ts';
import { parseRule } from '../rules/parse.ts';
import { readsBeyondRow } from '../rules/readsBeyondRow.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import { grantBecomes, grantWhen } from '../spec/grantParts.ts';
import { profileEntity } from '../spec/profileEntity.ts';
import { isRelationRole, relationPath, roleRelation } from '../spec/relationRoles.ts';
import { rolesNamedByRules } from '../spec/rolesNamedByRules.ts';
import { ruleSites } from '../spec/ruleSites.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import type { AppSpec, EntitySpec, Permission, RowRuleSpec, ScreenSpec } from '../spec/types.ts';
import type { AppModel } from './appModel.ts';
import { BUILTIN_CODES, SQL_RAISED_BUILTIN_CODES } from './builtinCodes.ts';
import { type CheckedRule, checkedRule, permissionRule } from './checkedRule.ts';
import { type ColumnNode, FILE_META_COLUMNS, IMPLICIT_COLUMNS, sqlTypeOf } from './column.ts';
import { columnValues } from './columnValues.ts';
import type { ConstantNode } from './constant.ts';
import type { ConstraintNode } from './constraint.ts';
import type { ErrorCodeNode } from './errorCode.ts';
import { errorParamsOf } from './errorParams.ts';
import type { FieldFormat } from './formats.ts';
import { hopConjuncts } from './hopConjunct.ts';
import { humanize } from './humanize.ts';
import { lazyField } from './lazyField.ts';
import { checkRule } from './modelRuleCheck.ts';
import { outboxOf } from './outbox.ts';
import { ACTIONS, type PolicyNode } from './policy.ts';
import type { ReferenceNode } from './reference.ts';
import type { RoleNode } from './role.ts';
import { roleClosureOf } from './roleClosure.ts';
import { routeParams, type ScreenNode } from './screen.ts';
import { tableSqlNames } from './sqlNames.ts';
import { stateMachinesOf } from './stateMachine.ts';
import type { TableNode } from './table.ts';
import type { TableIndexNode } from './tableIndex.ts';
import { textCeilingsOf } from './textCeilings.ts';
import type { TransitionNode } from './transition.ts';
import { transitionRulesOf } from './transitionRules.ts';
import { type ValidationRuleNode, validationRulesOf } from './validationRule.ts';

function impliedRoles(spec: AppSpec, role: string): string[] {
  const out: string[] = [];
  const visit = (r: string) => {
    if (out.includes(r)) return;
    out.push(r);
    for (const p of spec.roles.roles[r]?.inherits ?? []) visit(p);
  };
  visit(role);
  return out;
}

function when(p: Permission | undefined): true | string | undefined {
  return p === undefined || p === false ? undefined : p;
}

/** Row fields a rule pins by top-level `field = literal` conjuncts. */
function fixedBy(
  spec: AppSpec,
  entity: string,
  when: true | string,
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  if (when === true) return out;
  const r = checkRule(spec, when, { entity, expect: 'boolean' });
  if (!r.ok) return out;
  const visit = (t: Typed): void => {
    if (t.kind !== 'binary') return;
    if (t.op === 'and') {
      visit(t.left);
      visit(t.right);
      return;
    }
    if (t.op !== '=') return;
    const [f, l] = t.left.kind === 'field' ? [t.left, t.right] : [t.right, t.left];
    if (f.kind === 'field' && f.scope === 'row' && f.path.length === 1 && l.kind === 'literal')
      out[f.path[0]] = l.value;
  };
  visit(r.typed);
  return out;
}

/**
 * The rows a relationship is read from, readable to the person they name: their own memberships
 * (`person = me`), the scope rows naming them (`lead = me`). The relationship's EXISTS in a policy
 * runs under row-level security: without this, a person could hold a role in a transition or a
 * trigger (which read every row) but not in a policy. One per role, before the declared ones.
 */
function ownRelationReads(spec: AppSpec, entity: string): PolicyNode[] {
  const out: PolicyNode[] = [];
  for (const role of Object.keys(spec.roles.roles)) {
    const r = roleRelation(spec, role);
    const field =
      r?.kind === 'membership' && r.entity === entity
        ? r.user
        : r?.kind === 'field' && r.scope === entity
          ? r.field
          : undefined;
    if (field === undefined || !Object.hasOwn(spec.entities[entity]?.fields ?? {}, field)) continue;
    const when = `${field} = me`;
    out.push({
      entity,
      role,
      action: 'read',
      when,
      implicit: true,
      name: policyName(entity, role, 'own'),
      fixed: {},
      rule: checkedRule(spec, when, entity, `roles.roles.${role}.through`),
    });
  }
  return out;
}

/**
 * An entity's policies, worked out once per completed spec: the roles (for the profile entity),
 * each table's indexes and the model's list all read them, and each working-out parses every
 * permission's rule (a third of resolving the helpdesk, cold, in a profile of the app's start).
 * The nodes are shared, never changed.
 */
function policiesOf(spec: AppSpec, entity: string): readonly PolicyNode[] {
  const byEntity = policyMemo.get(spec) ?? new Map<string, readonly PolicyNode[]>();
  policyMemo.set(spec, byEntity);
  const out = byEntity.get(entity) ?? entityPolicies(spec, entity);
  byEntity.set(entity, out);
  return out;
}

const policyMemo = new WeakMap<AppSpec, Map<string, readonly PolicyNode[]>>();

function entityPolicies(spec: AppSpec, entity: string): PolicyNode[] {
  const out = declaredPolicies(spec, entity);
  // The own rows of a relationship join the role's declared read, or stand alone.
  for (const own of ownRelationReads(spec, entity)) {
    const i = out.findIndex((p) => p.role === own.role && p.action === 'read');
    const declared = out[i];
    if (!declared) {
      out.push(own);
      continue;
    }
    if (declared.when === true) continue;
    const when = `(${own.when}) or (${declared.when})`;
    const path = `roles.permissions.${own.role}.${entity}.read`;
    out[i] = { ...declared, when, rule: checkedRule(spec, when, entity, path) };
  }
  return out;
}

function declaredPolicies(spec: AppSpec, entity: string): PolicyNode[] {
  const out: PolicyNode[] = [];
  for (const role of Object.keys(spec.roles.roles)) {
    const perms = spec.roles.permissions[role]?.[entity];
    if (!perms) continue;
    const through = isRelationRole(spec, role);
    // A relationship role holds on the row itself: its grant is the relationship and the rule.
    if (through && !relationPath(spec, role, entity).ok) continue;
    const held = (w: true | string): true | string =>
      !through ? w : w === true ? `me is ${role}` : `me is ${role} and (${w})`;
    for (const action of ACTIONS) {
      const name = policyName(entity, role, action);
      const u = perms.update;
      const w = when(grantWhen(perms, action));
      if (w === undefined) continue;
      const b = grantBecomes(perms, action);
      out.push({
        entity,
        role,
        action,
        when: held(w),
        ...(action === 'update' && u ? { fields: u.fields } : {}),
        ...(b
          ? {
              becomes: checkedRule(
                spec,
                b.becomes,
                entity,
                `roles.permissions.${role}.${entity}.${action}.becomes`,
              ),
              error: b.error ?? 'FORBIDDEN',
              ...(b.error !== undefined ? { declaredError: b.error } : {}),
            }
          : {}),
        ...(through ? { declared: w } : {}),
        name,
        fixed: fixedBy(spec, entity, w),
        ...permissionRule(spec, entity, role, action, held(w)),
      });
    }
  }
  return out;
}

function formatsOf(spec: AppSpec, entity: string, field: string): FieldFormat[] {
  const out: FieldFormat[] = [];
  for (const r of spec.validation[entity] ?? [])
    if (r.kind === 'field' && r.field === field && r.format && !out.includes(r.format)) out.push(r.format);
  return out;
}

function declaredColumns(
  spec: AppSpec,
  entity: string,
  e: EntitySpec,
  profile: string | undefined,
): ColumnNode[] {
  const st = spec.states[entity];
  const out: ColumnNode[] = [];
  for (const [field, f] of Object.entries(e.fields)) {
    if (f.type === 'file') continue;
    const isStatus = st?.field === field;
    const values = columnValues(spec, entity, field);
    const references = f.type === 'user' ? profile : f.type === 'ref' ? f.ref : undefined;
    const node: ColumnNode = {
      field,
      column: columnName(field),
      origin: 'declared',
      type: f.type,
      sqlType: sqlTypeOf(f.type),
      label: f.label ?? humanize(field),
      notNull: f.required === true || f.owner === true || isStatus,
      unique: f.unique === true || f.unique === 'ignoreCase',
      ...(f.unique === 'ignoreCase' ? { uniqueIgnoringCase: true } : {}),
      formats: formatsOf(spec, entity, field),
      // A field not everyone may read is never searched: the search function reads every row.
      searchable:
        f.read === undefined &&
        f.search !== false &&
        (f.search === true || FIELD_TYPES[f.type].freeText !== undefined),
      writable: true,
      timestamp: f.type === 'datetime',
      spec: f,
    };
    if (isStatus) node.default = st.initial;
    else if (f.default !== undefined && f.default !== null)
      // An enum's values are text: a number default (`45`) is stored as its text, like the values.
      node.default = values && typeof f.default === 'number' ? String(f.default) : f.default;
    if (values) node.values = values;
    if (references) node.references = references;
    if (f.computed !== undefined)
      node.computed = checkedRule(
        spec,
        f.computed,
        entity,
        `entities.${entity}.fields.${field}.computed`,
        'value',
      );
    if (f.read !== undefined)
      node.read = checkedRule(spec, f.read, entity, `entities.${entity}.fields.${field}.read`, 'boolean');
    if (f.currency !== undefined) {
      const c = Object.hasOwn(spec.constants, f.currency) ? spec.constants[f.currency]?.value : undefined;
      node.currency = typeof c === 'string' ? c : f.currency;
    }
    out.push(node);
  }
  return out;
}

/** Row fields a rule reads (first path element, scope `row`): the columns worth indexing. */
function rowFieldsRead(t: Typed, out: Set<string>): void {
  if (t.kind === 'field' && t.scope === 'row') out.add(t.path[0] as string);
  for (const c of typedChildren(t)) rowFieldsRead(c, out);
}

function indexesOf(
  spec: AppSpec,
  entity: string,
  e: EntitySpec,
  refs: readonly ReferenceNode[],
  policies: readonly PolicyNode[],
): TableIndexNode[] {
  const reasons = new Map<string, Set<TableIndexNode['reasons'][number]>>();
  const add = (field: string, why: TableIndexNode['reasons'][number]) => {
    const s = reasons.get(field) ?? new Set();
    s.add(why);
    reasons.set(field, s);
  };
  for (const r of refs) add(r.field, 'reference');
  for (const p of policies) {
    if (p.when === true) continue;
    const r = checkRule(spec, p.when, { entity, expect: 'boolean' });
    if (!r.ok) continue;
    const read = new Set<string>();
    rowFieldsRead(r.typed, read);
    for (const f of read) add(f, 'rule');
  }
  // The default sort of list screens: without an index a page sorts every readable row.
  // Unique fields already have one.
  for (const s of Object.values(spec.screens)) {
    const field = s.entity === entity && s.sort ? s.sort.replace(/^-/, '') : undefined;
    if (field && !e.fields[field]?.unique) add(field, 'sort');
  }
  reasons.delete('id');
  const single = [...reasons.keys()]
    .map((field) => ({ field, column: columnName(field) }))
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
    .map(({ field, column }) => ({
      name: indexName(entity, column),
      entity,
      field,
      column,
      reasons: [...(reasons.get(field) ?? [])],
    }));
  const names = new Set(single.map((i) => i.name));
  const lists = [...listIndexes(spec, entity, policies), ...ownRowsIndexes(spec, entity, policies)].filter(
    (i) => !names.has(i.name) && names.add(i.name),
  );
  return [...single, ...membershipIndexes(spec, entity), ...lists];
}

/** What a list screen's rule fixes, for its indexes: columns fixed to one value, to several, and hops. */
interface ListShape {
  sort: string;
  /** Fields fixed to one value (`status = a`), sorted. */
  one: string[];
  /** Fields fixed to several (`status in (a, b)`): the index is partial on them. */
  only: { column: string; values: LiteralValue[] }[];
  /**
   * Fields the runtime bounds to the person: `assignee` of `assignee = me`, and hop conjuncts'
   * references (`submitter` of `submitter.manager = me`, sent as `submitter in (my reports)`).
   */
  hops: string[];
  /**
   * Fields every branch of an `or` conjunct fixes to one value (`priority` of `(priority = urgent
   * and createdAt < …) or (priority = high and …)`): after the fixed ones, each branch an index range.
   */
  branched: string[];
  /** The screen's filter fields: stored in its index, a filtered total reads the index alone. */
  filters: string[];
}

function listShape(spec: AppSpec, entity: string, s: ScreenSpec): ListShape | undefined {
  if (s.entity !== entity || s.kind !== 'list' || !s.sort) return undefined;
  const sort = s.sort.replace(/^-/, '');
  // Text sorts by `lower()` (listQuery.ts), which an index on the column does not serve.
  const type = spec.entities[entity]?.fields[sort]?.type;
  if (type !== undefined && FIELD_TYPES[type]?.freeText) return undefined;
  const r = s.where ? checkRule(spec, s.where, { entity, expect: 'boolean' }) : undefined;
  if (r && !r.ok) return undefined;
  const typed = r?.typed;
  const fixed = typed
    ? [...fixedFields(typed)].filter(([f]) => f !== sort).sort(([a], [b]) => (a < b ? -1 : 1))
    : [];
  return {
    sort,
    one: fixed.filter(([, v]) => v.length === 1).map(([f]) => f),
    only: fixed
      .filter(([, v]) => v.length > 1)
      .map(([f, values]) => ({ column: columnName(f), values: [...values].sort() })),
    hops: typed
      ? [...new Set([...meFields(typed), ...hopConjuncts(typed).map((h) => h.ref)])].filter((f) => f !== sort)
      : [],
    branched: typed ? branchFixed(typed).filter((f) => f !== sort) : [],
    filters: (s.filters ?? []).filter((f) => spec.entities[entity]?.fields[f] !== undefined),
  };
}

/** The fields every branch of some top-level `or` conjunct fixes to one literal. */
function branchFixed(t: Typed): string[] {
  if (t.kind === 'binary' && t.op === 'and')
    return [...new Set([...branchFixed(t.left), ...branchFixed(t.right)])];
  if (t.kind !== 'binary' || t.op !== 'or') return [];
  const branches: Typed[] = [];
  const flat = (x: Typed): void => {
    if (x.kind === 'binary' && x.op === 'or') {
      flat(x.left);
      flat(x.right);
    } else branches.push(x);
  };
  flat(t);
  const fixedIn = branches.map((b) => fixedFields(b));
  return [...(fixedIn[0]?.keys() ?? [])].filter((f) => fixedIn.every((m) => m.get(f)?.length === 1)).sort();
}

/** An index on `lead`, the shape's one-value columns and its sort (then `id`), partial on its `only`. */
function listIndex(
  entity: string,
  lead: readonly string[],
  shape: ListShape,
  policyColumns: ReadonlySet<string>,
): TableIndexNode {
  // `id` last: the list's tie-breaker, so equal or empty sort values need no sort of their own.
  const fields = [...new Set([...lead, ...shape.one, ...shape.branched])].filter((f) => f !== shape.sort);
  const columns = [...fields, shape.sort, 'id'].map(columnName);
  const suffix = shape.only.length ? `__where_${shape.only.map((o) => o.column).join('__')}` : '';
  const stored = [...policyColumns, ...shape.filters.map(columnName)];
  const include = [...new Set(stored)].filter((c) => !columns.includes(c)).sort();
  return {
    name: indexName(entity, `${columns.join('__')}${suffix}`),
    entity,
    field: (fields[0] ?? shape.sort) as string,
    column: columns[0] as string,
    columns,
    ...(shape.only.length ? { only: shape.only } : {}),
    ...(include.length ? { include } : {}),
    reasons: ['list'],
  };
}

/**
 * The columns the table's read policies read (`submitter`, `status` of `submitter = me or status
 * != draft`): stored in each list index, a count under row-level security needs no table row
 * (expenses' finance total, 10,001 claims: 14 ms → 2 ms at 1,000,000, as the owner's).
 */
function policyColumns(spec: AppSpec, entity: string, policies: readonly PolicyNode[]): Set<string> {
  const fields = new Set<string>();
  for (const p of policies) {
    if (p.action !== 'read' || p.entity !== entity || p.when === true) continue;
    const r = checkRule(spec, p.when, { entity, expect: 'boolean' });
    if (r.ok) rowReads(r.typed, entity, fields);
  }
  return new Set([...fields].map(columnName));
}

/** Fields of the row a rule reads, inside its counts too (`this.organisation`). */
function rowReads(t: Typed, entity: string, out: Set<string>): void {
  if (t.kind === 'field' && t.scope === 'row') out.add(t.path[0] as string);
  if (t.kind === 'this' && t.field && t.entity === entity) out.add(t.field);
  for (const c of typedChildren(t)) rowReads(c, entity, out);
}

/**
 * On a list screen whose rule fixes some columns (`status = approved`, `status in (a, b)`) and
 * which sorts by another: an index on (columns fixed to one value, sort column), partial on the
 * columns fixed to several (`where status in (...)`), so a page reads its 50 rows in order instead
 * of walking the sort index past every row of other states (expenses' `finance` list: 14,286 of
 * 20,000 claims thrown away a page without it; test/hosted/listQueryPlans.server.test.ts). A hop
 * conjunct's reference (`submitter.manager = me`) leads: expenses' `approvals` read 142,857
 * submitted claims' index entries to find one manager's 286 at 1,000,000 claims without it.
 */
function listIndexes(spec: AppSpec, entity: string, policies: readonly PolicyNode[]): TableIndexNode[] {
  const out = new Map<string, TableIndexNode>();
  const covered = policyColumns(spec, entity, policies);
  for (const s of Object.values(spec.screens)) {
    const shape = listShape(spec, entity, s);
    if (!shape || shape.one.length + shape.only.length + shape.hops.length + shape.branched.length === 0)
      continue;
    // With branches, also one without them: the page walks it in its order (an `or` of ranges
    // cannot be read in order), the total reads each branch's range of the other.
    const shapes = shape.branched.length > 0 ? [{ ...shape, branched: [] }, shape] : [shape];
    for (const one of shapes) {
      const index = listIndex(entity, one.hops, one, covered);
      if (index.columns?.length === 2 && !index.only) continue;
      const key = JSON.stringify([index.columns, index.only ?? []]);
      if (![...out.values()].some((i) => JSON.stringify([i.columns, i.only ?? []]) === key))
        out.set(index.name, index);
    }
  }
  return [...out.values()];
}

/**
 * For a role that reads only its own rows (`requester = me`) or the rows of the scopes it holds a
 * relationship role on (`me is orgMember`: `organisation in (my organisations)`), filters the
 * runtime sends: an index on (that column, each list screen's fixed columns and sort), so a
 * customer's page reads their 50 newest tickets in order (without it: 19,965 other people's
 * tickets thrown away a page at 1,000,000) and a member's overdue tasks are counted from the index
 * alone (task's organisation and status side by side: 25 ms → 3 ms at 1,000,000).
 */
function ownRowsIndexes(spec: AppSpec, entity: string, policies: readonly PolicyNode[]): TableIndexNode[] {
  const out = new Map<string, TableIndexNode>();
  const covered = policyColumns(spec, entity, policies);
  for (const p of policies) {
    if (p.action !== 'read' || p.entity !== entity || p.when === true) continue;
    const r = checkRule(spec, p.when, { entity, expect: 'boolean' });
    const mine = new Set<string>();
    if (r.ok) meConjuncts(r.typed, mine);
    // The checked rule spells a relationship role out (a count of memberships): read it as written.
    const parsed = parseRule(p.when);
    if (parsed.ok) relationConjuncts(spec, entity, parsed.expr, mine);
    // The lists this role opens (its navigation).
    for (const s of Object.values(spec.screens)) {
      const shape = listShape(spec, entity, s);
      if (!shape || !(s.nav ?? []).includes(p.role)) continue;
      for (const field of mine) {
        if (field === shape.sort) continue;
        const index = listIndex(entity, [field, ...shape.hops], shape, covered);
        out.set(index.name, index);
      }
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** `meConjuncts` as a list. */
function meFields(t: Typed): string[] {
  const out = new Set<string>();
  meConjuncts(t, out);
  return [...out];
}

/** Row fields with a top-level conjunct `field = me`. */
function meConjuncts(t: Typed, out: Set<string>): void {
  if (t.kind === 'binary' && t.op === 'and') {
    meConjuncts(t.left, out);
    meConjuncts(t.right, out);
  } else if (t.kind === 'binary' && t.op === '=') {
    const [a, b] = t.left.kind === 'field' ? [t.left, t.right] : [t.right, t.left];
    if (a.kind === 'field' && a.scope === 'row' && a.path.length === 1 && b.kind === 'me' && !b.field)
      out.add(a.path[0] as string);
  }
}

/** A rule's top-level conjuncts `me is <role held through a relationship>`: the row's reference to its scope. */
function relationConjuncts(spec: AppSpec, entity: string, e: Expr, out: Set<string>): void {
  if (e.kind === 'binary' && e.op === 'and') {
    relationConjuncts(spec, entity, e.left, out);
    relationConjuncts(spec, entity, e.right, out);
  } else if (e.kind === 'role' && !e.negated && e.subject.kind === 'me' && !e.subject.field) {
    const path = relationPath(spec, e.role, entity);
    if (path.ok && path.via !== null) out.add(path.via);
  }
}

/** Row fields a rule's top-level conjuncts fix to literals, with the literals (`status = a`: [a]). */
function fixedFields(t: Typed, out = new Map<string, LiteralValue[]>()): Map<string, LiteralValue[]> {
  const field = (x: Typed): string | undefined =>
    x.kind === 'field' && x.scope === 'row' && x.path.length === 1 ? x.path[0] : undefined;
  const literal = (x: Typed): x is Extract<Typed, { kind: 'literal' }> =>
    x.kind === 'literal' && x.value !== null;
  if (t.kind === 'binary' && t.op === 'and') {
    fixedFields(t.left, out);
    fixedFields(t.right, out);
  } else if (t.kind === 'binary' && t.op === '=') {
    const [a, b] = field(t.left) ? [t.left, t.right] : [t.right, t.left];
    const f = field(a);
    if (f && literal(b) && !out.has(f)) out.set(f, [b.value as LiteralValue]);
  } else if (t.kind === 'in' && !t.negated) {
    const f = field(t.operand);
    if (f && t.list.length > 0 && t.list.every(literal) && !out.has(f))
      out.set(
        f,
        t.list.map((x) => (x as Extract<Typed, { kind: 'literal' }>).value as LiteralValue),
      );
  }
  return out;
}

type LiteralValue = string | number | boolean;

/**
 * On a membership entity of a relationship role: one index on (person, scope), which the role's
 * EXISTS reads in every policy (`person = me and team = <row's team>`), once for all its roles.
 */
function membershipIndexes(spec: AppSpec, entity: string): TableIndexNode[] {
  const pairs = new Set<string>();
  for (const role of Object.keys(spec.roles.roles)) {
    const r = roleRelation(spec, role);
    if (r?.kind === 'membership' && r.entity === entity) pairs.add(`${r.user}\u0000${r.scopeField}`);
  }
  return [...pairs].map((pair) => {
    const [user, scope] = pair.split('\u0000') as [string, string];
    const column = columnName(user);
    const also = columnName(scope);
    return {
      name: indexName(entity, `${column}__${also}`),
      entity,
      field: user,
      column,
      columns: [column, also],
      reasons: ['role' as const],
    };
  });
}

/** A row rule reading only the row's own columns is a CHECK; one reading more is a trigger. */
function rowLocal(spec: AppSpec, entity: string, rule: RowRuleSpec): boolean {
  // A CHECK holds on every write; a rule checked only when its field changes needs the old row.
  if (rule.onChange) return false;
  const texts = rule.when === undefined ? [rule.rule] : [rule.rule, rule.when];
  return texts.every((t) => {
    const r = checkRule(spec, t, { entity, expect: 'boolean' });
    return r.ok && !readsBeyondRow(r.typed);
  });
}

function constraintsOf(spec: AppSpec, entity: string, columns: readonly ColumnNode[]): ConstraintNode[] {
  const out: ConstraintNode[] = [];
  for (const c of columns) {
    if (c.origin !== 'declared') continue;
    if (c.unique)
      out.push({
        name: uniqueConstraintName(entity, c.field),
        entity,
        kind: 'unique',
        field: c.field,
        ...(c.uniqueIgnoringCase ? { ignoreCase: true } : {}),
      });
    // A required text field must not be blank (white space only), not merely not null.
    if (c.spec?.required && FIELD_TYPES[c.spec.type].freeText !== undefined)
      out.push({
        name: blankConstraintName(entity, c.field),
        entity,
        kind: 'required',
        code: 'REQUIRED',
        field: c.field,
      });
    if (c.values)
      out.push({ name: valuesConstraintName(entity, c.field), entity, kind: 'values', field: c.field });
  }
  (spec.entities[entity]?.unique ?? []).forEach((key, i) => {
    // A unique key over several fields raises its own code; the message attaches to its last field.
    const node: ConstraintNode = {
      name: uniqueKeyConstraintName(entity, key.error, i),
      entity,
      kind: 'unique',
      code: key.error,
      ...(key.ignoreCase ? { ignoreCase: true } : {}),
    };
    const field = key.fields[key.fields.length - 1];
    if (field !== undefined) node.field = field;
    out.push(node);
  });
  (spec.validation[entity] ?? []).forEach((rule, i) => {
    const node: ConstraintNode = {
      name: validationConstraintName(entity, rule.error, i),
      entity,
      kind: 'validation',
      code: rule.error,
      rule: i,
      enforcedBy: rule.kind === 'row' && !rowLocal(spec, entity, rule) ? 'trigger' : 'check',
    };
    if (rule.field) node.field = rule.field;
    out.push(node);
  });
  return out;
}

function transitionsOf(
  spec: AppSpec,
  entity: string,
  roles: ReadonlyMap<string, RoleNode>,
): TransitionNode[] {
  const st = spec.states[entity];
  if (!st) return [];
  return Object.entries(st.transitions).map(([name, t]) => {
    const node: TransitionNode = {
      entity,
      name,
      label: t.label ?? humanize(name),
      functionName: transitionFunctionName(entity, name),
      from: t.from,
      to: t.to,
      roles: t.roles,
      allowedRoles: [...roles.values()]
        .filter((r) => r.implied.some((i) => t.roles.includes(i)))
        .map((r) => r.name),
      input: t.input ?? [],
      optionalInput: t.optionalInput ?? [],
      set: t.set ?? {},
      confirm: t.confirm === true,
      calls: t.calls ?? [],
      ...transitionRulesOf(spec, entity, name, t),
    };
    if (t.guard !== undefined) node.guard = t.guard;
    if (t.guardError !== undefined) node.guardError = t.guardError;
    return node;
  });
}

function rolesOf(spec: AppSpec, profile: string | undefined): Map<string, RoleNode> {
  const names = Object.keys(spec.roles.roles);
  const implied = new Map(names.map((r) => [r, impliedRoles(spec, r)]));
  const direct = profile
    ? policiesOf(spec, profile)
        .filter((p) => p.action === 'update' && p.when === true)
        .map((p) => p.role)
    : [];
  const out = new Map<string, RoleNode>();
  for (const [name, r] of Object.entries(spec.roles.roles)) {
    const mine = implied.get(name) ?? [name];
    const node: RoleNode = {
      name,
      label: r.label,
      inherits: r.inherits ?? [],
      implied: mine,
      holders: names.filter((h) => implied.get(h)?.includes(name)),
      signup: r.signup === true,
      admin: mine.some((i) => direct.includes(i)),
    };
    if (r.description !== undefined) node.description = r.description;
    const through = roleRelation(spec, name);
    if (through) node.through = through;
    out.set(name, node);
  }
  return out;
}

function tableOfSpec(
  spec: AppSpec,
  entity: string,
  e: EntitySpec,
  profile: string | undefined,
  roles: ReadonlyMap<string, RoleNode>,
): TableNode {
  const declared = declaredColumns(spec, entity, e, profile);
  const fileMeta = e.files ? FILE_META_COLUMNS.filter((c) => !Object.hasOwn(e.fields, c.field)) : [];
  const columns = [...IMPLICIT_COLUMNS, ...declared, ...fileMeta];
  const references: ReferenceNode[] = declared
    .filter((c) => c.references !== undefined)
    .map((c) => ({
      entity,
      field: c.field,
      column: c.column,
      target: c.references as string,
      onDelete: c.spec?.onDelete ?? 'restrict',
      constraintName: foreignKeyName(entity, c.field),
    }));
  const policies = policiesOf(spec, entity);
  const label = e.label ?? humanize(entity);
  const st = spec.states[entity];
  const readRestricted = columns.filter((c) => c.read !== undefined);
  const readTable = readRestricted.length > 0 ? tableSqlNames(entity).readView : tableName(entity);
  const node: Omit<TableNode, 'indexes' | 'rules'> = {
    entity,
    table: tableName(entity),
    ref: `public.${quoteIdent(tableName(entity))}`,
    readTable,
    readRef: `public.${quoteIdent(readTable)}`,
    readRestricted,
    label,
    plural: e.plural ?? `${label}s`,
    profile: e.profile === true,
    files: e.files === true,
    live: e.live === true,
    columns,
    byField: new Map(columns.map((c) => [c.field, c])),
    byColumn: new Map(columns.map((c) => [c.column, c])),
    fileFields: Object.entries(e.fields)
      .filter(([, f]) => f.type === 'file')
      .map(([n]) => n),
    writable: new Set(columns.filter((c) => c.writable && c.origin === 'declared').map((c) => c.field)),
    searchable: declared.filter((c) => c.searchable).map((c) => c.column),
    ownerFields: declared.filter((c) => c.spec?.owner).map((c) => c.field),
    references,
    constraints: constraintsOf(spec, entity, columns),
    transitions: transitionsOf(spec, entity, roles),
    names: tableSqlNames(entity),
    textCeilings: textCeilingsOf(spec, entity, e),
    spec: e,
  };
  lazyField(node, 'indexes', () => indexesOf(spec, entity, e, references, policies));
  lazyField(node, 'rules', () => validationRulesOf(spec, entity));
  if (e.title !== undefined) node.title = e.title;
  if (st) {
    node.statusField = st.field;
    node.historyTable = historyTableName(entity);
  }
  return node;
}

function errorsOf(
  spec: AppSpec,
  constraints: ReadonlyMap<string, ConstraintNode>,
  tables: ReadonlyMap<string, TableNode>,
): Map<string, ErrorCodeNode> {
  const byCode = new Map<string, string[]>();
  for (const c of constraints.values()) {
    if (!c.code) continue;
    byCode.set(c.code, [...(byCode.get(c.code) ?? []), c.name]);
  }
  const raisedBySpec = new Set<string>();
  for (const st of Object.values(spec.states))
    for (const t of Object.values(st.transitions))
      for (const g of transitionGuards(t)) if (g.error) raisedBySpec.add(g.error);
  for (const rules of Object.values(spec.validation))
    for (const r of rules) if (r.kind === 'row') raisedBySpec.add(r.error);
  const out = new Map<string, ErrorCodeNode>();
  for (const code of BUILTIN_CODES) {
    out.set(code, {
      code,
      builtin: true,
      severity: 'error',
      sql: { raised: SQL_RAISED_BUILTIN_CODES.includes(code), constraints: [] },
    });
  }
  for (const [code, e] of Object.entries(spec.errors)) {
    const node: ErrorCodeNode = {
      code,
      builtin: out.has(code),
      message: e.message,
      severity: e.severity,
      sql: {
        raised: raisedBySpec.has(code) || SQL_RAISED_BUILTIN_CODES.includes(code),
        constraints: byCode.get(code) ?? [],
      },
    };
    if (e.field !== undefined) node.field = e.field;
    const params = errorParamsOf(spec, tables, code);
    if (params) node.params = params;
    out.set(code, node);
  }
  return out;
}

const cache = new WeakMap<AppSpec, AppModel>();

/** The tables' validation rules in the `validation` section's order (the document lists them so). */
function validationOrder(
  spec: AppSpec,
  tables: ReadonlyMap<string, TableNode>,
): Map<string, readonly ValidationRuleNode[]> {
  const out = new Map<string, readonly ValidationRuleNode[]>();
  for (const entity of Object.keys(spec.validation)) {
    const rules = tables.get(entity)?.rules ?? [];
    if (rules.length > 0) out.set(entity, rules);
  }
  return out;
}

/** Tests and tools hand over partial specs (one or two sections); absent sections are empty. */
function complete(spec: AppSpec): AppSpec {
  const s = spec as Partial<AppSpec>;
  return {
    purpose: s.purpose ?? { name: '', summary: '', users: [] },
    screens: s.screens ?? {},
    entities: s.entities ?? {},
    states: s.states ?? {},
    validation: s.validation ?? {},
    roles: { roles: s.roles?.roles ?? {}, permissions: s.roles?.permissions ?? {} },
    calls: { declared: s.calls?.declared ?? {} },
    errors: s.errors ?? {},
    constants: s.constants ?? {},
  };
}

/**
 * Resolves a validated specification into the app model. Pure and cached per spec object.
 *
 * @example
 * const model = resolve(spec);
 * model.tables.get('expenseClaim')?.table;                   // 'expense_claim'
 * model.tables.get('ticket')?.byField.get('assignedTo')?.column; // 'assigned_to'
 * model.roles.get('admin')?.implied;                         // ['admin', 'agent', 'customer']
 */
export function resolve(input: AppSpec): AppModel {
  const hit = cache.get(input);
  if (hit) return hit;
  const spec = complete(input);
  const profile = profileEntity(spec);
  const roles = rolesOf(spec, profile);
  const tables = new Map<string, TableNode>();
  for (const [entity, e] of Object.entries(spec.entities))
    tables.set(entity, tableOfSpec(spec, entity, e, profile, roles));
  const constraints = new Map<string, ConstraintNode>();
  for (const t of tables.values()) for (const c of t.constraints) constraints.set(c.name, c);
  const constants = new Map<string, ConstantNode>();
  for (const [name, c] of Object.entries(spec.constants)) {
    const node: ConstantNode = { name, value: c.value, label: c.label };
    if (c.unit !== undefined) node.unit = c.unit;
    if (c.type !== undefined) node.type = c.type;
    constants.set(name, node);
  }
  const screens = new Map<string, ScreenNode>();
  for (const [name, s] of Object.entries(spec.screens)) {
    const node: ScreenNode = {
      name,
      route: s.route,
      params: routeParams(s.route),
      kind: s.kind,
      title: s.title,
      nav: s.nav ?? [],
      spec: s,
    };
    if (s.entity !== undefined) node.entity = s.entity;
    if (s.widgets !== undefined)
      node.widgets = s.widgets.map((w) => ({ kind: w.kind, roles: w.roles ?? [] }));
    if (s.where !== undefined)
      node.whereRule = checkedRule(spec, s.where, s.entity ?? null, `screens.${name}.where`);
    screens.set(name, node);
  }
  const policies = [...tables.keys()].flatMap((entity) => policiesOf(spec, entity));
  const transitions = [...tables.values()].flatMap((t) => t.transitions);
  const model: Omit<AppModel, 'validation' | 'rules' | 'outbox'> = {
    purpose: spec.purpose,
    tables,
    roles,
    policies,
    transitions,
    constraints,
    errors: errorsOf(spec, constraints, tables),
    constants,
    screens,
    calls: new Map(Object.entries(spec.calls.declared)),
    machines: stateMachinesOf(spec),
    rolesNamedByRules: rolesNamedByRules(spec),
    roleClosure: roleClosureOf(spec),
  };
  lazyField(model, 'validation', () => validationOrder(spec, tables));
  lazyField(model, 'rules', () =>
    withDerivedRules(
      ruleSites(spec).map((r) => checkedRule(spec, r.text, r.entity, r.path, r.expect)),
      policies,
      transitions,
    ),
  );
  lazyField(model, 'outbox', () => outboxOf(spec));
  if (profile !== undefined) model.profile = profile;
  cache.set(input, model);
  return model;
}

/**
 * The spec's rules, then the rules the model writes itself (a relationship role's
 * `me is projectLead and (…)` policies, a transition's roles as a rule), so the runtime's rule
 * table holds every rule the server enforces.
 */
function withDerivedRules(
  written: CheckedRule[],
  policies: readonly PolicyNode[],
  transitions: readonly TransitionNode[],
): CheckedRule[] {
  const seen = new Set(written.map((r) => `${r.entity}\u0000${r.text}`));
  const derived = [...policies.map((p) => p.rule), ...transitions.map((t) => t.rolesRule)];
  for (const r of derived)
    if (r && !seen.has(`${r.entity}\u0000${r.text}`)) {
      seen.add(`${r.entity}\u0000${r.text}`);
      written.push(r);
    }
  return written;
}
