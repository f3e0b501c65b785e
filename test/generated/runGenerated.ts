/**
 * What every generated specification must satisfy, shared by the CI suite and `npm run
 * bench:specs`: `check` reports no error; the migration applies on the given databases and passes
 * the catalog audit (RLS enabled and forced on every table, definer functions with a fixed
 * search_path, ...); the TypeScript evaluator and the SQL agree on every rule site and on what
 * each user may read.
 */
import { lintSpec } from '../../src/check/lintSpec.ts';
import { validateSpec } from '../../src/check/validateSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';
import { openAgreementDb } from '../agreement/agreementDb.ts';
import { compareOnDataset, compileSites, describeDisagreements } from '../agreement/compare.ts';
import type { Plan } from '../agreement/dataset.ts';
import { CHECKS, violations } from '../enforcement/support/catalogueChecks.ts';

/** Refuses with the problems `check` reports as errors; returns the migration. */
export function checkAndCompile(spec: AppSpec): string {
  const errors = [...validateSpec(spec).diagnostics, ...lintSpec(spec)].filter((d) => d.severity === 'error');
  if (errors.length > 0)
    throw new Error(`check: ${errors.map((d) => `${d.path}: ${d.message}`).join('\n  ')}`);
  return compileMigration(spec);
}

/** Applies the migration to an empty database and runs the catalog audit. */
export async function applyAndAudit(db: TestDb, migration: string, where: string): Promise<void> {
  try {
    await applyMigration(db, migration);
  } catch (e) {
    throw new Error(`migration on ${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
  await auditOnly(db, where);
}

/** The catalog audit of a database the migration was applied to. */
async function auditOnly(db: TestDb, where: string): Promise<void> {
  for (const check of CHECKS) {
    const v = await violations(db, check);
    if (v.length > 0) throw new Error(`audit on ${where}: ${check.name}: ${v.join(', ')}`);
  }
}

/** Rule agreement (every rule site, and each user's readable rows) on the given datasets. */
export async function agree(
  spec: AppSpec,
  migration: string,
  plans: readonly Plan[],
  server: boolean,
  /** Also runs the migration check and the catalog audit on the agreement's own database (one database per spec). */
  audit = false,
): Promise<number> {
  const db = await openAgreementDb(
    migration,
    server,
    audit ? (fresh) => auditOnly(fresh, server ? 'the server' : 'PGlite') : undefined,
  );
  try {
    const rules = compileSites(spec);
    let cases = 0;
    for (const plan of plans) {
      const o = await compareOnDataset(db, spec, rules, plan, { rls: true, allowOutOfRange: true });
      cases += o.cases;
      if (o.disagreements.length > 0)
        throw new Error(
          `agreement: ${o.disagreements.length} disagreement(s):\n${describeDisagreements(o.disagreements)}`,
        );
    }
    return cases;
  } finally {
    await db.close();
  }
}
