/**
 * Creates and updates on a generated specification, acted out as clients (users of every role and
 * one without roles) against what the rules say, evaluated in TypeScript:
 * - create: succeeds exactly when some held role's create permission holds on the row as it would
 *   be stored (its subqueries see the rows the user can read, as the policy's do), every field rule
 *   passes, every row rule holds on the table after the write (counts over the rows the writer may
 *   read or owns, docs/security.md "Non-interference") and every reference names a row the user can
 *   read; a refusal carries one of the codes of the reasons that fail (42501 for the permission,
 *   the rule's own catalogue code, 23503 for a hidden reference);
 * - update of one field: succeeds exactly when the row is readable, some held role may update it
 *   with the field in its list (its `when` on the old row), some role's `when` holds on the new
 *   row, the new row stays readable (by the read rules as the read policies evaluate them: their
 *   own entity's read cycle whole, through security-definer helpers), and every field and row rule
 *   passes on the new row; a permission refusal is 'hidden' (no row), 42501 or FIELD_NOT_WRITABLE,
 *   a rule refusal carries the rule's code.
 * The expectation is computed from the spec by the same evaluator and field-rule check the browser
 * uses (`holds`, `fieldRuleHolds`), so this is also a browser/database agreement check on writes.
 */

import { resolve } from '../../src/model/resolve.ts';
import { lowerLikePostgres } from '../../src/rules/evaluate.ts';
import type { DataContext } from '../../src/rules/index.ts';
import { computedValues } from '../../src/runtime/computedValues.ts';
import { fieldRuleHolds } from '../../src/runtime/formSchema.ts';
import { isBlank } from '../../src/spec/blank.ts';
import { FIELD_TYPES } from '../../src/spec/fieldTypes.ts';
import { grantBecomes, grantWhen } from '../../src/spec/grantParts.ts';
import type { AppSpec, Permission } from '../../src/spec/types.ts';
import { policyReads } from '../../src/sql/policyReads.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { columnSql, type FieldRow, type Snapshot, tableSql } from '../enforcement/support/model.ts';
import { rolledBack, type SeedUser, trial } from '../enforcement/support/seed.ts';
import { dependentsBroken, holdsOn } from './dependentsBroken.ts';
import { recomputedRows } from './recomputeOracle.ts';
import { oraclePermissions, oracleRoles } from './relationOracle.ts';

export interface WriteOutcome {
  creates: number;
  createsDone: number;
  updates: number;
  updatesDone: number;
  mismatches: string[];
}

// A permission refusal: no row (RLS USING), the policy's WITH CHECK or a column grant (42501), the
// column rule (FIELD_NOT_WRITABLE) or the re-check under the group locks (FORBIDDEN).
const PERMISSION_CODES = ['hidden', '42501', 'FIELD_NOT_WRITABLE', 'FORBIDDEN'];

function permits(
  spec: AppSpec,
  entity: string,
  p: Permission | undefined,
  row: FieldRow,
  user: SeedUser,
  data: DataContext,
): boolean {
  if (p === undefined || p === false) return false;
  if (p === true) return true;
  return holdsOn(spec, entity, p, row, user, data);
}

/** The codes of the validation rules `after` breaks (field rules on the row, row rules on the table after the write). */
export function brokenRules(
  spec: AppSpec,
  entity: string,
  after: FieldRow,
  user: SeedUser,
  data: DataContext,
): string[] {
  const out: string[] = [];
  // Required text that is blank once trimmed (the browser's check, src/spec/blank.ts).
  for (const [name, f] of Object.entries(spec.entities[entity]?.fields ?? {}))
    if (f.required && FIELD_TYPES[f.type].freeText && typeof after[name] === 'string' && isBlank(after[name]))
      out.push('REQUIRED');
  for (const v of spec.validation[entity] ?? []) {
    if (v.kind === 'field') {
      const value = after[v.field];
      const empty = value === null || value === undefined || (Array.isArray(value) && value.length === 0);
      if (!empty && !fieldRuleHolds(resolve(spec), v, value)) out.push(v.error);
      continue;
    }
    if (v.when && !holdsOn(spec, entity, v.when, after, user, data)) continue;
    if (!holdsOn(spec, entity, v.rule, after, user, data)) out.push(v.error);
  }
  return out;
}

/**
 * Whether `row` repeats a unique field's value of a stored row (every row, seen or not): the same
 * text, or for `unique: 'ignoreCase'` the same text lower-cased as Postgres `lower` does.
 */
function repeatsUnique(spec: AppSpec, entity: string, row: FieldRow, rows: readonly FieldRow[]): boolean {
  return Object.entries(spec.entities[entity]?.fields ?? {}).some(([name, f]) => {
    const v = row[name];
    if (!f.unique || typeof v !== 'string') return false;
    const key = (x: unknown) =>
      typeof x !== 'string' ? undefined : f.unique === 'ignoreCase' ? lowerLikePostgres(x) : x;
    return rows.some((r) => r.id !== row.id && key(r[name]) === key(v));
  });
}

/**
 * What a row rule sees after a client's write: counts run over the rows the writer may read or
 * owns plus the written row (`__counted_for_writer`); references and sums see every row. Whether
 * the writer may read a row is judged after the write, as the definer function does: a read rule
 * that reads the written entity (`count(claim where parent = this.parent and owner = me) >= 1`)
 * may make rows readable because of the new row (the rest keep the readability seen before).
 */
function afterWrite(
  spec: AppSpec,
  snap: Snapshot,
  visible: ReadonlyMap<string, ReadonlySet<string>>,
  user: SeedUser,
  entity: string,
  after: FieldRow,
): DataContext {
  const owned = (e: string, r: FieldRow) =>
    Object.entries(spec.entities[e]?.fields ?? {}).some(([n, f]) => f.owner && r[n] === user.id);
  const whole = wholeAfter(snap, entity, after);
  const roles = oracleRoles(spec, user.roles);
  const readable = (e: string, r: FieldRow) =>
    readsWritten(spec, roles, e, entity)
      ? roles.some((role) => permits(spec, e, oraclePermissions(spec)[role]?.[e]?.read, r, user, whole))
      : (visible.get(e)?.has(String(r.id)) ?? false);
  return {
    rows: (e) => {
      const base = snap
        .rows(e)
        .filter((r) => r.id !== after.id)
        .filter((r) => readable(e, r) || owned(e, r));
      return e === entity ? [...base, after] : base;
    },
    get: (e, id) => (e === entity && id === after.id ? after : snap.get(e, id)),
    profile: (id) => snap.profile(id),
    roles: (id) => snap.rolesOf(id),
  };
}

/** Whether one of `roles`' read rules of `e` reads rows of `written` (counts, sums or a reference to it). */
function readsWritten(spec: AppSpec, roles: readonly string[], e: string, written: string): boolean {
  const refs = Object.entries(spec.entities[e]?.fields ?? {})
    .filter(([, f]) => f.type === 'ref' && f.ref === written)
    .map(([n]) => n);
  return roles.some((role) => {
    const read = oraclePermissions(spec)[role]?.[e]?.read;
    if (typeof read !== 'string') return false;
    return (
      new RegExp(`\\b(count|sum)\\(${written}\\b`).test(read) ||
      refs.some((n) => new RegExp(`\\b${n}\\.`).test(read)) ||
      (e === written && /\bthis\b/.test(read))
    );
  });
}

/** Every row as the database's security-definer triggers see it after the write of `after`. */
function wholeAfter(snap: Snapshot, entity: string, after: FieldRow): DataContext {
  const swap = (e: string, r: FieldRow) => (e === entity && r.id === after.id ? after : r);
  // A create's row is not in the snapshot: it is in the table when the triggers run.
  const added = (e: string) => (e === entity && !snap.get(e, after.id as string) ? [after] : []);
  return {
    rows: (e) => [...snap.rows(e).map((r) => swap(e, r)), ...added(e)],
    get: (e, id) => {
      if (e === entity && id === after.id) return after;
      const r = snap.get(e, id);
      return r && swap(e, r);
    },
    profile: (id) => snap.profile(id),
    roles: (id) => snap.rolesOf(id),
  };
}

/**
 * What `entity`'s read policies see: the entities of its read cycle (`policyReads.cycleOf`, read
 * through security-definer helpers) whole, every other one narrowed to the writer's rows.
 */
function readPolicyData(spec: AppSpec, snap: Snapshot, narrowed: DataContext, entity: string): DataContext {
  const cycle = policyReads(resolve(spec)).cycleOf(entity);
  return {
    ...narrowed,
    rows: (e) => (cycle.has(e) ? snap.rows(e) : narrowed.rows(e)),
    get: (e, id) => (cycle.has(e) ? snap.get(e, id) : narrowed.get(e, id)),
  };
}

/** The columns `authenticated` may insert into an entity's table. */
async function insertable(db: TestDb, entity: string): Promise<Set<string>> {
  const r = await db.query<{ column_name: string }>(
    `select column_name from information_schema.column_privileges
     where grantee = 'authenticated' and table_schema = 'public' and table_name = $1 and privilege_type = 'INSERT'`,
    [tableSql(entity).slice('public.'.length).replaceAll('"', '')],
  );
  return new Set(r.rows.map((x) => x.column_name));
}

/** Values that break each generated field rule now and then (too long, negative, over the limit, not a URL). */
function createPayloads(
  spec: AppSpec,
  entity: string,
  readable: (e: string) => string[],
  hidden: (e: string) => string[],
  existingCodes: (e: string) => unknown[],
): Record<string, unknown>[] {
  const e = spec.entities[entity];
  if (!e) return [];
  const existing = existingCodes(entity);
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k < 6; k++) {
    const v: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.owner || f.type === 'status' || f.type === 'user') continue;
      // ' \t ' is blank: a required text refuses it (REQUIRED) on both sides.
      if (name === 'title') v.title = ['New row', 'N'.repeat(120), 'x', ' \t ', 'Y'.repeat(8), 'Z'][k];
      // The upper-cased code of a stored row: a clash when unique ignoring case, else a new value.
      else if (name === 'code') v.code = k === 1 ? String(existing[0] ?? 'none').toUpperCase() : null;
      else if (f.type === 'number') v[name] = [5, -3, 11, 2000, null, 0][k];
      else if (f.type === 'longtext')
        v[name] = [null, 'https://example.com/m', '<b>', null, 'plain', null][k];
      else if (f.type === 'boolean') v[name] = k % 2 === 0;
      else if (f.type === 'date') v[name] = ['2026-01-02', null, '2030-05-05', null, '2020-01-01', null][k];
      else if (f.type === 'datetime')
        v[name] = [
          null,
          new Date(Date.now() + 3_600_000).toISOString(),
          '2026-11-23T10:00:00Z',
          null,
          null,
          null,
        ][k];
      else if (f.type === 'enum') v[name] = f.values?.[k % (f.values?.length ?? 1)];
      else if (f.type === 'tags') v[name] = k % 3 === 1 ? ['red'] : [];
      else if (f.type === 'ref' && f.ref) {
        // Mostly a row the user can read; one payload names a row they cannot (refused like a missing one).
        const pool = k === 3 ? hidden(f.ref) : readable(f.ref);
        v[name] = pool.length > 0 && k % 2 === 1 ? pool[k % pool.length] : null;
      }
    }
    out.push(v);
  }
  return out;
}

/** A new value for one field of an existing row, now and then breaking a field rule. */
function updateValue(spec: AppSpec, entity: string, field: string, n: number, old: unknown): unknown {
  const f = spec.entities[entity]?.fields[field];
  switch (f?.type) {
    case 'text':
      return ['Edited', 'E'.repeat(150), 'x', '\u00a0 '][n % 4];
    case 'longtext':
      return ['https://example.com/e', '<i>'][n % 2];
    case 'number':
      return [7, -1, 5000][n % 3];
    case 'boolean':
      return !old;
    case 'date':
      return ['2026-02-03', '2031-01-01'][n % 2];
    case 'enum':
      return (f.values ?? []).find((x) => x !== old) ?? f.values?.[0];
    default:
      return undefined;
  }
}

/**
 * Acts out creates and updates for `users` on the seeded database; `visible` gives each user's
 * readable rows (by entity), `catalogue` turns a database error into its code.
 */
export async function checkWrites(
  db: TestDb,
  spec: AppSpec,
  users: readonly SeedUser[],
  snap: Snapshot,
  visibleOf: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>,
  narrowedOf: (user: SeedUser) => DataContext,
  catalogue: (e: unknown) => string,
): Promise<WriteOutcome> {
  const out: WriteOutcome = { creates: 0, createsDone: 0, updates: 0, updatesDone: 0, mismatches: [] };
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const entities = Object.keys(spec.entities).filter((e) => e !== profile);
  const updatable = new Set<string>();
  for (const perms of Object.values(spec.roles.permissions))
    for (const e of entities) {
      const u = perms[e]?.update;
      if (u) for (const f of u.fields) updatable.add(`${e}.${f}`);
    }
  for (const user of users) {
    const roles = oracleRoles(spec, user.roles);
    const visible = visibleOf.get(user.id) ?? new Map<string, ReadonlySet<string>>();
    const data = narrowedOf(user);
    const readable = (e: string) =>
      snap
        .rows(e)
        .map((r) => String(r.id))
        .filter((id) => visible.get(e)?.has(id));
    const hidden = (e: string) =>
      snap
        .rows(e)
        .map((r) => String(r.id))
        .filter((id) => !visible.get(e)?.has(id));
    for (const entity of entities) {
      const e = spec.entities[entity];
      const st = spec.states[entity];
      if (!e) continue;
      // Creates (no RETURNING: a role may create rows it cannot read), with the fields a client may insert (a transition's input, for one, is written by
      // the transition only: the grants leave it out, and so does the browser's create form).
      const granted = await insertable(db, entity);
      const codes = (en: string) => snap.rows(en).map((r) => r.code);
      const payloads = createPayloads(spec, entity, readable, hidden, codes).map((p) =>
        Object.fromEntries(
          Object.entries(p).filter(([k]) => granted.has(columnSql(spec, entity, k).replaceAll('"', ''))),
        ),
      );
      const got = await rolledBack(
        (fn) => db.asUser(user.id, fn),
        async (q) => {
          const res: string[] = [];
          for (const p of payloads) {
            const cols = Object.keys(p).map((k) => columnSql(spec, entity, k));
            const r = await trial(q, () =>
              q.query(
                cols.length === 0
                  ? `insert into ${tableSql(entity)} default values`
                  : `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
                Object.values(p),
              ),
            );
            res.push(r.ok ? 'ok' : catalogue(r.error));
          }
          return res;
        },
      );
      payloads.forEach((p, i) => {
        out.creates += 1;
        const row: FieldRow = { ...p, id: `new-${i}` };
        for (const [name, f] of Object.entries(e.fields)) {
          if (f.owner) row[name] = user.id;
          if (f.default !== undefined && row[name] === undefined) row[name] = f.default;
          if (row[name] === undefined) row[name] = null;
        }
        // The state the insert trigger chooses: the first initialWhen rule that holds on the new
        // row, read by a security-definer function (every row, the new one not yet stored).
        // What the computed-fields trigger sets before any rule reads the row.
        // A rule reading a referenced row reads it whoever writes (security definer): every row.
        Object.assign(
          row,
          computedValues(resolve(spec), entity, row, { id: user.id, roles: user.roles }, { data: snap }),
        );
        if (st)
          row[st.field] =
            (st.initialWhen ?? []).find((r) => holdsOn(spec, entity, r.when, row, user, snap))?.state ??
            st.initial;
        const reasons: string[] = [];
        // WITH CHECK runs before the row is in the table: the permission's subqueries do not see it.
        // It is the rule and its `becomes`; before it, the insert trigger raises the first applying
        // grant's code when one has a `becomes` and none lets the row through.
        const creates = roles.flatMap((r) => {
          const p = oraclePermissions(spec)[r]?.[entity];
          return permits(spec, entity, grantWhen(p, 'create'), row, user, data)
            ? [grantBecomes(p, 'create')]
            : [];
        });
        const through = (b: { becomes: string } | undefined) =>
          b === undefined || permits(spec, entity, b.becomes, row, user, data);
        if (!creates.some(through)) {
          reasons.push('42501', 'FORBIDDEN');
          reasons.push(...creates.flatMap((b) => (b ? [b.error ?? 'FORBIDDEN'] : [])));
        }
        for (const [name, f] of Object.entries(e.fields))
          if (f.type === 'ref' && row[name] !== null && !visible.get(f.ref ?? '')?.has(String(row[name])))
            reasons.push('23503');
        reasons.push(
          ...brokenRules(spec, entity, row, user, afterWrite(spec, snap, visible, user, entity, row)),
        );
        if (repeatsUnique(spec, entity, row, snap.rows(entity))) reasons.push('UNIQUE');
        const outcome = got[i] ?? 'missing';
        const what = `${user.label} create ${entity} ${JSON.stringify(p)}`;
        if (reasons.length === 0 && outcome === 'ok') out.createsDone += 1;
        else if (reasons.length === 0) out.mismatches.push(`${what}: expected ok, got ${outcome}`);
        else if (outcome === 'ok')
          out.mismatches.push(`${what}: expected refused (${reasons.join(', ')}), it succeeded`);
        else if (!reasons.includes(outcome))
          out.mismatches.push(`${what}: refused with ${outcome}, expected one of ${reasons.join(', ')}`);
      });
      // Updates: two fields per row, in turn, each with a value that sometimes breaks a field rule.
      const fields = Object.keys(e.fields).filter((f) => updatable.has(`${entity}.${f}`));
      if (fields.length === 0) continue;
      const writes: { row: FieldRow; field: string; value: unknown }[] = [];
      snap.rows(entity).forEach((row, i) => {
        for (const field of [fields[i % fields.length], fields[(i + 1) % fields.length]]) {
          if (field === undefined || writes.some((w) => w.row === row && w.field === field)) continue;
          const value = updateValue(spec, entity, field, i, row[field]);
          if (value !== undefined) writes.push({ row, field, value });
        }
      });
      const updated = await rolledBack(
        (fn) => db.asUser(user.id, fn),
        async (q) => {
          const res: string[] = [];
          for (const w of writes) {
            const r = await trial(q, () =>
              q.query(
                `update ${tableSql(entity)} set ${columnSql(spec, entity, w.field)} = $2 where id = $1 returning id`,
                [w.row.id, w.value],
              ),
            );
            res.push(r.ok ? (r.value.rows.length > 0 ? 'ok' : 'hidden') : catalogue(r.error));
          }
          return res;
        },
      );
      writes.forEach((w, i) => {
        out.updates += 1;
        const old = w.row;
        const after: FieldRow = { ...old, [w.field]: w.value };
        Object.assign(
          after,
          computedValues(resolve(spec), entity, after, { id: user.id, roles: user.roles }, { data: snap }),
        );
        const reasons: string[] = [];
        const perms = (r: string) => oraclePermissions(spec)[r]?.[entity]?.update;
        const readableRow = visible.get(entity)?.has(String(old.id)) ?? false;
        const oldOk = roles.some((r) => {
          const u = perms(r);
          return !!u && u.fields.includes(w.field) && permits(spec, entity, u.when, old, user, data);
        });
        // WITH CHECK's subqueries see the table before the write (the old version of this row).
        const newOk = roles.some((r) => {
          const u = perms(r);
          return (
            !!u &&
            permits(spec, entity, u.when, after, user, data) &&
            (u.becomes === undefined || permits(spec, entity, u.becomes, after, user, data))
          );
        });
        // Postgres applies the read policies to the new row of an UPDATE that reads the table (its
        // WHERE does): nobody writes a row out of their own sight. They read as the read policies
        // do: their own entity's cycle through security-definer helpers (every row, the table as
        // it was before the write), the rest under the writer's RLS.
        const readData = readPolicyData(spec, snap, data, entity);
        const stillReadable = roles.some((r) =>
          permits(spec, entity, oraclePermissions(spec)[r]?.[entity]?.read, after, user, readData),
        );
        if (!readableRow || !oldOk || !newOk || !stillReadable) reasons.push(...PERMISSION_CODES);
        // The update permissions' `becomes`: of those that apply to the stored row, one lets the new
        // row through, else the first with a `becomes` names the code (ninefold_28_check_becomes).
        const applying = roles.flatMap((r) => {
          const u = perms(r);
          return u && permits(spec, entity, u.when, old, user, data) ? [u] : [];
        });
        const through = (u: { becomes?: string }) =>
          u.becomes === undefined || permits(spec, entity, u.becomes, after, user, data);
        if (readableRow && applying.some((u) => u.becomes !== undefined) && !applying.some(through))
          reasons.push(...applying.flatMap((u) => (u.becomes !== undefined ? [u.error ?? 'FORBIDDEN'] : [])));
        reasons.push(
          ...brokenRules(spec, entity, after, user, afterWrite(spec, snap, visible, user, entity, after)),
        );
        // Rows of other entities whose rules read this one through a reference are checked again
        // by a security-definer trigger: every row, whoever may read it.
        const child = dependentsBroken(spec, entity, old, after, user, wholeAfter(snap, entity, after));
        if (child) reasons.push(child);
        // Rows whose computed fields read this one are rewritten and checked by their own rules.
        for (const d of recomputedRows(spec, entity, old, after, user, snap))
          reasons.push(
            ...brokenRules(
              spec,
              d.entity,
              d.row,
              user,
              afterWrite(spec, snap, visible, user, d.entity, d.row),
            ),
          );
        const outcome = updated[i] ?? 'missing';
        const what = `${user.label} update ${entity} ${String(old.id)}.${w.field} = ${JSON.stringify(w.value)}`;
        if (reasons.length === 0 && outcome === 'ok') out.updatesDone += 1;
        else if (reasons.length === 0) out.mismatches.push(`${what}: expected ok, got ${outcome}`);
        else if (outcome === 'ok')
          out.mismatches.push(`${what}: expected refused (${reasons.join(', ')}), it succeeded`);
        else if (!reasons.includes(outcome))
          out.mismatches.push(`${what}: refused with ${outcome}, expected one of ${reasons.join(', ')}`);
      });
    }
  }
  return out;
}
