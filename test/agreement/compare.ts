/**
 * Runs every compiled rule on both engines over one generated dataset and lists disagreements.
 *
 * One transaction per dataset: `now()` is the transaction's start, read back and handed to the
 * evaluator; the rows are inserted as the owner with triggers off (`session_replication_role =
 * replica`) so they stay exactly as generated; each user's claims are set with `set_config(...,
 * true)` so `auth.uid()` is theirs; one SELECT per (user, entity) evaluates every rule of the
 * entity on every row. Rolled back at the end.
 */
import type { Typed } from '../../src/rules/ast.ts';
import { type DataContext, evaluateRule, normaliseValue, type RuleValue } from '../../src/rules/evaluate.ts';
import { compileRuleSql, profileEntityName } from '../../src/sql/compileRuleSql.ts';
import { tableRef } from '../../src/sql/specModel.ts';
import { typedRule } from '../../src/sql/typedRule.ts';
import { ruleSites } from '../../src/spec/ruleSites.ts';
import type { AppSpec } from '../../src/spec/types.ts';
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
    const typed = typedRule(spec, s.text, s.entity, s.path, s.expect);
    const sql = compileRuleSql(typed, { spec, row: 'r' });
    byKey.set(key, { paths: [s.path], text: s.text, entity: s.entity, expect: s.expect, typed, sql });
  }
  return [...byKey.values()];
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
  disagreements: Disagreement[];
}

function same(a: RuleValue, b: RuleValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

function dataContext(m: Materialised, profile: string | undefined): DataContext {
  const index = new Map<string, Map<string, Record<string, unknown>>>();
  for (const [e, rows] of Object.entries(m.ts)) index.set(e, new Map(rows.map((r) => [String(r.id), r])));
  return {
    rows: (e) => m.ts[e] ?? [],
    get: (e, id) => index.get(e)?.get(id) ?? null,
    profile: (id) => (profile ? (index.get(profile)?.get(id) ?? null) : null),
    roles: (id) => m.roles.get(id) ?? null,
  };
}

/** Evaluates every rule on every row for every user, in one transaction, on both engines. */
export async function compareOnDataset(
  db: Session,
  spec: AppSpec,
  rules: readonly CompiledRule[],
  plan: Plan,
): Promise<Outcome> {
  const out: Outcome = { cases: 0, disagreements: [] };
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
      const table = tableRef(entity);
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
    const data = dataContext(m, profileEntityName(spec));
    const now = new Date(nowMs);
    const byEntity = new Map<string, CompiledRule[]>();
    for (const r of rules) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r]);
    for (const user of m.users) {
      const claims = JSON.stringify(user.id === null ? { role: 'anon' } : { sub: user.id, role: 'authenticated' });
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      for (const [entity, list] of byEntity) {
        const tsRows = m.ts[entity] ?? [];
        if (tsRows.length === 0) continue;
        const cols = list.map((r, i) => `(${r.sql}) as c${i}`).join(',\n  ');
        const res = await db.query<Record<string, unknown>>(
          `select r.id::text as id,\n  ${cols}\nfrom ${tableRef(entity)} r`,
        );
        const sqlById = new Map(res.rows.map((row) => [String(row.id), row]));
        for (const row of tsRows) {
          const sqlRow = sqlById.get(String(row.id));
          list.forEach((rule, i) => {
            out.cases += 1;
            const raw = sqlRow ? sqlRow[`c${i}`] : undefined;
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
              spec,
              data,
            });
            if (!sqlRow || !same(sqlResult, tsResult) || (rule.expect === 'boolean' && raw !== null && typeof raw !== 'boolean'))
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
