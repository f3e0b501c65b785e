import type { AppModel } from '../model/index.ts';
import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import { emitAdminRpc } from './emitAdminRpc.ts';
import { emitAuditTriggers } from './emitAuditTriggers.ts';
import { emitComputed } from './emitComputed.ts';
import { emitCountVisibility } from './emitCountVisibility.ts';
import { emitFieldReads } from './emitFieldReads.ts';
import { emitFileRemovals } from './emitFileRemovals.ts';
import { emitFileChecks } from './emitFiles.ts';
import { emitApiRoleSettings, emitSchemaGrants, emitTableGrants } from './emitGrants.ts';
import { emitLockFunction, emitWriterLocks, lockedGroups } from './emitGroupLocks.ts';
import { emitHistory } from './emitHistory.ts';
import { emitOutbox } from './emitOutbox.ts';
import { emitPermissionRecheck } from './emitPermissionRecheck.ts';
import { emitPolicies } from './emitPolicies.ts';
import { emitRealtime } from './emitRealtime.ts';
import { emitRecompute } from './emitRecompute.ts';
import { emitProfileSync, emitRoleTable } from './emitRoles.ts';
import { emitRowTriggers } from './emitRowTriggers.ts';
import { emitScreenFilters } from './emitScreenFilters.ts';
import { emitSearch, TRIGRAM_EXTENSION_SQL } from './emitSearch.ts';
import { emitStorage } from './emitStorage.ts';
import { emitForeignKeys, emitIndexes, emitTable, emitUniqueIndexes } from './emitTables.ts';
import { emitTimed } from './emitTimed.ts';
import { emitTransitions } from './emitTransitions.ts';
import { emitValidationTrigger } from './emitValidation.ts';
import { sqlComment } from './quote.ts';
import type { Target } from './specModel.ts';

export interface MigrationOptions {
  /** `embedded` (PGlite; file bytes in rows) or `supabase` (hosted; file bytes in Storage). */
  target?: Target;
}

const HEADER = `-- Conventions (see src/sql/README.md):
--   tables public.<entity_snake>, columns <field_snake>; id/created_at/updated_at/version on every table;
--   updates bump version: clients update "where version = $v" (0 rows = CONFLICT).
--   errors: SQLSTATE P0001, message = catalogue code, detail = JSON parameters.
--   validation CHECKs are named <table>__<error_code_lower>__<n> (n = rule position, from 1).
--   roles: app.user_roles (admins only), app.has_role(uid, role) follows inheritance.`;

function section(title: string, parts: readonly string[]): string {
  const body = parts.filter((p) => p.trim().length > 0).join('\n\n');
  return body.length === 0
    ? ''
    : `${sqlComment(['='.repeat(70), title, '='.repeat(70)].join('\n'))}\n\n${body}`;
}

/**
 * Compiles a specification to one Postgres migration enforcing every rule of it: tables and
 * constraints, roles, row-level security, column privileges, transition functions, history.
 * Deterministic (same spec, same text) and runnable twice. Expects Supabase's `auth` schema
 * (hosted) or `AUTH_STAND_IN_SQL` (embedded, tests) to exist; the supabase target also adds Storage,
 * Realtime and user administration, and expects the `storage` schema (`STORAGE_STAND_IN_SQL` in tests).
 *
 * @example
 * const sql = compileMigration(helpdesk); // write to supabase/migrations/..._ninefold.sql
 */
export function compileMigration(app: SpecOrModel, options: MigrationOptions = {}): string {
  return migrationOf(modelOf(app), options.target ?? 'embedded');
}

/** The migration of a resolved model (compileMigration's body). */
export function migrationOf(model: AppModel, target: Target): string {
  const entities = [...model.tables.keys()];
  const groups = lockedGroups(model);
  const parts = [
    `${sqlComment(`Ninefold migration for "${model.purpose.name}" (target: ${target}). Generated: do not edit.`)}\n${HEADER}`,
    section('Schemas', [
      'create schema if not exists app;',
      emitSchemaGrants(),
      emitApiRoleSettings(),
      TRIGRAM_EXTENSION_SQL,
    ]),
    section('Roles', [emitRoleTable(model)]),
    section('Locks', [emitLockFunction()]),
    section(
      'Tables',
      entities.map((e) => emitTable(model, e, target)),
    ),
    section(
      'References and indexes',
      entities.flatMap((e) => [
        emitForeignKeys(model, e),
        emitIndexes(model, e),
        emitUniqueIndexes(model, e),
        emitFileChecks(model, e, target),
      ]),
    ),
    section('Users', [emitProfileSync(model)]),
    section(
      'Row bookkeeping and column rules',
      entities.flatMap((e) => [
        emitRowTriggers(model, e),
        emitComputed(model, e),
        emitRecompute(model, e),
        emitWriterLocks(model, e, groups),
      ]),
    ),
    section(
      'Validation beyond the row',
      entities.flatMap((e) => [
        emitCountVisibility(model, e),
        emitValidationTrigger(model, e),
        emitPermissionRecheck(model, e),
      ]),
    ),
    section('History', [
      ...entities.map((e) => emitHistory(model, e)),
      ...entities.map((e) => emitAuditTriggers(model, e)),
    ]),
    // Before the transitions that write to it: declared calls, queued in their transaction.
    section('Outbox', [emitOutbox(model)]),
    section(
      'Transitions',
      entities.map((e) => emitTransitions(model, e, groups)),
    ),
    // After the tables they move rows of; only when some transition happens by time.
    section('Transitions by time', [emitTimed(model, target)]),
    section(
      'Row-level security',
      entities.map((e) => emitPolicies(model, e)),
    ),
    section(
      'Search',
      entities.map((e) => emitSearch(model, e)),
    ),
    section(
      'Privileges',
      entities.map((e) => emitTableGrants(model, e, target)),
    ),
    // After the tables' privileges: what clients read of tables with read-restricted fields.
    section(
      'Per-field reads',
      entities.map((e) => emitFieldReads(model, e)),
    ),
    // After the tables' privileges and views: a screen's filter reads them as its caller.
    section('Screen filters', [emitScreenFilters(model)]),
    // Both targets: one user-administration API, so the adapters call the same functions.
    section('User administration', [emitAdminRpc(model)]),
    // Hosted only: Supabase Storage and Realtime.
    ...(target === 'supabase'
      ? [
          section('Storage', [...entities.map((e) => emitStorage(model, e)), emitFileRemovals(model)]),
          section('Realtime', [emitRealtime(model)]),
        ]
      : []),
  ];
  return `${parts.filter((p) => p.length > 0).join('\n\n')}\n`;
}
