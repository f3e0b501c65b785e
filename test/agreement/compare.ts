import { roleClosureOf } from '../../src/model/roleClosure.ts';
/**
 * Runs every compiled rule on both engines over one generated dataset and lists disagreements.
 *
 * One transaction per dataset: `now()` is the transaction's start, read back and handed to the
 * evaluator; the rows are inserted as the owner with triggers off (`session_replication_role =
 * replica`) so they stay exactly as generated; each user's claims are set with `set_config(...,
 * true)` so `auth.uid()` is theirs; one SELECT per (user, entity) evaluates every rule of the
 * entity on every row. Rolled back at the end.
 */

import { checkedRule } from '../../src/model/checkedRule.ts';
import { resolve } from '../../src/model/resolve.ts';
import { tableSqlNames } from '../../src/model/sqlNames.ts';
import type { Typed } from '../../src/rules/ast.ts';
import { checkRule } from '../../src/rules/check.ts';
import {
  type DataContext,
  effectiveRoles,
  evaluateRule,
  holds,
  normaliseValue,
  type RuleValue,
} from '../../src/rules/evaluate.ts';
import { ruleSites } from '../../src/spec/ruleSites.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileRuleSql } from '../../src/sql/compileRuleSql.ts';
import { policyReads } from '../../src/sql/policyReads.ts';
import { qualified } from '../../src/sql/quote.ts';
import { tableRef } from '../../src/sql/specModel.ts';
import { typedOf } from '../../src/sql/typedRule.ts';
import type { Session } from './agreementDb.ts';
import { type AgreementUser, type Materialised, materialise, type Plan } from './dataset.ts';

/** A rule ready for both engines. */
export interface CompiledRule {
  /** Spec paths where this text occurs (the same text on the same entity is evaluated once). */
  paths: string[];
  text: string;
  entity: string;
  expect: 'boolean' | 'value';
  typed: Typed;
  sql: string;
}

/** Every rule site of a specification that is about an entity, compiled for both engines. */
export function compileSites(spec: AppSpec): CompiledRule[] {
  const byKey = new Map<string, CompiledRule>();
  for (const s of ruleSites(spec)) {
    if (s.entity === null) continue;
    const key = `${s.entity}\u0000${s.expect}\u0000${s.text}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.paths.push(s.path);
      continue;
    }
    const typed = typedOf(checkedRule(spec, s.text, s.entity, s.path, s.expect));
    const sql = compileRuleSql(typed, { model: resolve(spec), row: 'r' });
    byKey.set(key, { paths: [s.path], text: s.text, entity: s.entity, expect: s.expect, typed, sql });
  }
  return [...byKey.values()];
}

/** Rules given as text (or as a typed tree built by hand), on one entity, compiled for both engines. */
export function compileRules(
  spec: AppSpec,
  entity: string,
  rules: readonly (string | { label: string; typed: Typed; expect?: 'boolean' | 'value' })[],
): CompiledRule[] {
  return rules.map((r) => {
    if (typeof r !== 'string') {
      const sql = compileRuleSql(r.typed, { model: resolve(spec), row: 'r' });
      return { paths: [r.label], text: r.label, entity, expect: r.expect ?? 'boolean', typed: r.typed, sql };
    }
    const checked = checkRule(spec, r, { entity, expect: 'value' });
    if (!checked.ok) throw new Error(`${r}: ${checked.errors.map((e) => e.message).join('; ')}`);
    const expect = checked.typed.type.kind === 'boolean' ? 'boolean' : 'value';
    const sql = compileRuleSql(checked.typed, { model: resolve(spec), row: 'r' });
    return { paths: [r], text: r, entity, expect, typed: checked.typed, sql };
  });
}

/**
 * The SQL of a rule as a value the driver returns unambiguously: durations as milliseconds,
 * dates as `YYYY-MM-DD` (drivers turn a date into a local-midnight Date).
 */
function readable(r: CompiledRule): string {
  if (r.expect === 'boolean') return `(${r.sql})`;
  if (r.typed.type.kind === 'duration') return `(extract(epoch from (${r.sql})) * 1000)`;
  if (r.typed.type.kind === 'date') return `to_char((${r.sql}), 'YYYY-MM-DD')`;
  return `(${r.sql})`;
}

export interface Disagreement {
  rule: string;
  paths: string[];
  sql: string;
  entity: string;
  row: Record<string, unknown>;
  user: AgreementUser;
  now: string;
  timezone: string;
  sqlResult: RuleValue;
  tsResult: RuleValue;
}

export interface Outcome {
  cases: number;
  /** Evaluations Postgres refused with a range error (SQLSTATE 22003/22008), when allowed. */
  outOfRange: number;
  disagreements: Disagreement[];
}

export interface CompareOptions {
  /**
   * Also compare what each signed-in user may read: the rows RLS returns to `authenticated` against
   * the read permissions of the user's roles evaluated by TypeScript. Policies read other tables
   * under RLS too, so the evaluator's data is narrowed to the readable rows until it is stable.
   */
  rls?: boolean;
  /**
   * Whether a value beyond Postgres' ranges (an interval over ±178 million years, a numeric
   * overflow) is skipped and counted instead of failing the run. Off for the reference apps.
   */
  allowOutOfRange?: boolean;
}

/** A rule Postgres refused to evaluate on a row because a value left its type's range. */
class OutOfRange {
  constructor(readonly code: string) {}
}

const RANGE_ERRORS = new Set(['22003', '22008']);

function sqlState(e: unknown): string | undefined {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Every rule of an entity on every row in one SELECT. When a rule overflows on some row the whole
 * SELECT fails; then (if allowed) each rule runs on each row alone under a savepoint.
 */
async function selectRules(
  db: Session,
  entity: string,
  list: readonly CompiledRule[],
  opts: CompareOptions,
): Promise<Map<string, Record<string, unknown>>> {
  const table = qualified('public', tableSqlNames(entity).table);
  const cols = list.map((r, i) => `${readable(r)} as c${i}`).join(',\n  ');
  await db.query('savepoint batch');
  try {
    const res = await db.query<Record<string, unknown>>(
      `select r.id::text as id,\n  ${cols}\nfrom ${table} r`,
    );
    await db.query('release savepoint batch');
    return new Map(res.rows.map((row) => [String(row.id), row]));
  } catch (e) {
    await db.query('rollback to savepoint batch');
    const code = sqlState(e);
    if (!opts.allowOutOfRange || code === undefined || !RANGE_ERRORS.has(code)) throw e;
  }
  const ids = (await db.query<{ id: string }>(`select id::text as id from ${table}`)).rows.map((r) => r.id);
  const out = new Map<string, Record<string, unknown>>(ids.map((id) => [id, { id }]));
  for (const [i, rule] of list.entries()) {
    for (const id of ids) {
      await db.query('savepoint one');
      try {
        const r = await db.query<{ v: unknown }>(
          `select ${readable(rule)} as v from ${table} r where r.id = $1`,
          [id],
        );
        const target = out.get(id);
        if (target) target[`c${i}`] = r.rows[0]?.v ?? null;
        await db.query('release savepoint one');
      } catch (e) {
        await db.query('rollback to savepoint one');
        const code = sqlState(e);
        if (code === undefined || !RANGE_ERRORS.has(code)) throw e;
        const target = out.get(id);
        if (target) target[`c${i}`] = new OutOfRange(code);
      }
    }
  }
  return out;
}

function same(a: RuleValue, b: RuleValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/** The rows both engines read; `visible` restricts each entity to the ids a user may read. */
function dataContext(
  m: Materialised,
  profile: string | undefined,
  visible?: ReadonlyMap<string, ReadonlySet<string>>,
): DataContext {
  const index = new Map<string, Map<string, Record<string, unknown>>>();
  const rowsOf = (e: string) => (m.ts[e] ?? []).filter((r) => !visible || visible.get(e)?.has(String(r.id)));
  for (const e of Object.keys(m.ts)) index.set(e, new Map(rowsOf(e).map((r) => [String(r.id), r])));
  return {
    rows: (e) => [...(index.get(e)?.values() ?? [])],
    get: (e, id) => index.get(e)?.get(id) ?? null,
    profile: (id) => (profile ? (index.get(profile)?.get(id) ?? null) : null),
    roles: (id) => m.roles.get(id) ?? null,
  };
}

/**
 * Read permission of each role on each entity: `true` or the checked rule, as the model enforces it
 * (a role held through a relationship: the relationship and the declared rule).
 */
function readRules(spec: AppSpec): Map<string, Map<string, true | Typed>> {
  const out = new Map<string, Map<string, true | Typed>>();
  for (const p of resolve(spec).policies) {
    if (p.action !== 'read') continue;
    const byRole = out.get(p.entity) ?? new Map<string, true | Typed>();
    byRole.set(p.role, p.rule ? typedOf(p.rule) : true);
    out.set(p.entity, byRole);
  }
  return out;
}

async function compareVisibility(
  db: Session,
  spec: AppSpec,
  m: Materialised,
  now: Date,
  out: Outcome,
  nowText: string,
  timezone: string,
): Promise<void> {
  const rules = readRules(spec);
  const profile = resolve(spec).profile;
  for (const user of m.users) {
    if (user.id === null) continue;
    const held = effectiveRoles(roleClosureOf(spec), user.roles);
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: user.id, role: 'authenticated' }),
    ]);
    await db.query('set local role authenticated');
    const seen = new Map<string, Set<string>>();
    for (const entity of Object.keys(m.ts)) {
      // A table no role may read has no SELECT grant (the call fails with FORBIDDEN): nothing is seen.
      // A table with fields only some may read is granted column by column (its id among them).
      const granted = await db.query<{ ok: boolean }>(
        `select has_column_privilege($1, 'id', 'select') as ok`,
        [tableRef(resolve(spec), entity)],
      );
      if (granted.rows[0]?.ok !== true) {
        seen.set(entity, new Set());
        continue;
      }
      const r = await db.query<{ id: string }>(
        `select id::text as id from ${tableRef(resolve(spec), entity)}`,
      );
      seen.set(entity, new Set(r.rows.map((x) => x.id)));
    }
    await db.query('reset role');
    // Fixpoint: what a policy's subquery sees is itself filtered by RLS.
    let visible: Map<string, Set<string>> | undefined;
    // A read rule's reads of its own entity, and of entities whose read rules read back into it,
    // go through a security-definer helper (no RLS, no policy recursion): for the entity's own
    // rules, all rows of those entities are seen.
    const allIds = (entity: string) => new Set((m.ts[entity] ?? []).map((r) => String(r.id)));
    const reads = policyReads(resolve(spec));
    for (let round = 0; round < 5; round++) {
      const next = new Map<string, Set<string>>();
      for (const [entity, rows] of Object.entries(m.ts)) {
        const cycle = [...reads.cycleOf(entity)].map((e): [string, Set<string>] => [e, allIds(e)]);
        const data = dataContext(m, profile, visible && new Map([...visible, ...cycle]));
        const ids = new Set<string>();
        for (const row of rows) {
          const ctx = {
            row,
            user: { id: user.id, roles: user.roles },
            now,
            roleClosure: roleClosureOf(spec),
            data,
          };
          const readable = [...(rules.get(entity) ?? [])].some(
            // A role held through a relationship is anyone's whose relationship its rule finds.
            ([role, rule]) =>
              (held.has(role) || resolve(spec).roles.get(role)?.through !== undefined) &&
              (rule === true || holds(rule, ctx)),
          );
          if (readable) ids.add(String(row.id));
        }
        next.set(entity, ids);
      }
      const stable =
        visible !== undefined &&
        [...next].every(
          ([e, ids]) => ids.size === visible?.get(e)?.size && [...ids].every((i) => visible?.get(e)?.has(i)),
        );
      visible = next;
      if (stable) break;
    }
    for (const [entity, rows] of Object.entries(m.ts)) {
      for (const row of rows) {
        out.cases += 1;
        const sqlSees = seen.get(entity)?.has(String(row.id)) ?? false;
        const tsSees = visible?.get(entity)?.has(String(row.id)) ?? false;
        if (sqlSees !== tsSees)
          out.disagreements.push({
            rule: `read policies of ${entity}`,
            paths: [`roles.permissions.*.${entity}.read`],
            sql: `select id from ${tableRef(resolve(spec), entity)} -- as authenticated`,
            entity,
            row,
            user,
            now: nowText,
            timezone,
            sqlResult: sqlSees,
            tsResult: tsSees,
          });
      }
    }
  }
}

/** Evaluates every rule on every row for every user, in one transaction, on both engines. */
export async function compareOnDataset(
  db: Session,
  spec: AppSpec,
  rules: readonly CompiledRule[],
  plan: Plan,
  opts: CompareOptions = {},
): Promise<Outcome> {
  const out: Outcome = { cases: 0, outOfRange: 0, disagreements: [] };
  await db.query('begin');
  try {
    await db.query(`select set_config('timezone', $1, true)`, [plan.timezone]);
    const t = (
      await db.query<{ t: string }>(
        `select to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US') as t`,
      )
    ).rows[0]?.t;
    if (!t) throw new Error('no transaction time');
    const nowMs = Date.parse(`${t.slice(0, 23)}Z`);
    const m = materialise(spec, plan, nowMs, t.slice(23, 26));
    await db.query('set local session_replication_role = replica');
    for (const [entity, rows] of Object.entries(m.sql)) {
      if (rows.length === 0) continue;
      const table = tableRef(resolve(spec), entity);
      await db.query(
        `insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`,
        [JSON.stringify(rows)],
      );
    }
    if (m.userRoles.length > 0)
      await db.query(
        `insert into app.user_roles (user_id, role) select user_id, role from jsonb_to_recordset($1::jsonb) as x(user_id uuid, role text)`,
        [JSON.stringify(m.userRoles)],
      );
    const data = dataContext(m, resolve(spec).profile);
    const now = new Date(nowMs);
    const byEntity = new Map<string, CompiledRule[]>();
    for (const r of rules) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r]);
    for (const user of m.users) {
      const claims = JSON.stringify(
        user.id === null ? { role: 'anon' } : { sub: user.id, role: 'authenticated' },
      );
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      for (const [entity, list] of byEntity) {
        const tsRows = m.ts[entity] ?? [];
        if (tsRows.length === 0) continue;
        const sqlById = await selectRules(db, entity, list, opts);
        for (const row of tsRows) {
          const sqlRow = sqlById.get(String(row.id));
          list.forEach((rule, i) => {
            const raw = sqlRow ? sqlRow[`c${i}`] : undefined;
            if (raw instanceof OutOfRange) {
              out.outOfRange += 1;
              return;
            }
            out.cases += 1;
            const sqlResult =
              rule.expect === 'boolean'
                ? typeof raw === 'boolean'
                  ? raw
                  : null
                : normaliseValue(raw, rule.typed.type);
            const tsResult = evaluateRule(rule.typed, {
              row,
              user: user.id === null ? null : { id: user.id, roles: user.roles },
              now,
              roleClosure: roleClosureOf(spec),
              data,
            });
            const malformed = rule.expect === 'boolean' && raw !== null && typeof raw !== 'boolean';
            if (!sqlRow || malformed || !same(sqlResult, tsResult))
              out.disagreements.push({
                rule: rule.text,
                paths: rule.paths,
                sql: rule.sql,
                entity,
                row,
                user,
                now: `${t}Z`,
                timezone: plan.timezone,
                sqlResult,
                tsResult,
              });
          });
        }
      }
    }
    if (opts.rls) await compareVisibility(db, spec, m, now, out, `${t}Z`, plan.timezone);
  } finally {
    await db.query('rollback');
  }
  return out;
}

/** A readable report of the first disagreements. */
export function describeDisagreements(ds: readonly Disagreement[], max = 5): string {
  return ds
    .slice(0, max)
    .map(
      (d) =>
        `rule: ${d.rule}  (${d.paths.join(', ')})\n  sql: ${d.sql}\n  entity: ${d.entity}\n  row: ${JSON.stringify(d.row)}\n` +
        `  user: ${JSON.stringify(d.user)}\n  now: ${d.now}  timezone: ${d.timezone}\n  sql result: ${JSON.stringify(d.sqlResult)}  ts result: ${JSON.stringify(d.tsResult)}`,
    )
    .join('\n\n');
}
