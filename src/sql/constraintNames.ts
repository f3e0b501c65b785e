import { columnName, tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';

/**
 * Name of the CHECK constraint of the `index`-th (0-based) validation rule of an entity:
 * `<table>__<error_code_lower>__<n>` with n = index + 1. The error mapper reads the code
 * back from the name (or from `constraintCatalogue`).
 *
 * @example
 * validationConstraintName('ticket', 'TITLE_TOO_SHORT', 0); // 'ticket__title_too_short__1'
 */
export function validationConstraintName(entity: string, code: string, index: number): string {
  // Dotted codes (`claim.locked`) become `claim_locked`: the catalogue maps the name back.
  return `${tableName(entity)}__${code.toLowerCase().replace(/[^a-z0-9_]/g, '_')}__${index + 1}`;
}

/** Name of the UNIQUE constraint of a field: `<table>__<column>__unique`. */
export function uniqueConstraintName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__unique`;
}

/**
 * Name of the `index`-th (0-based) unique key over several fields: `<table>__<code>__key<n>`.
 *
 * @example
 * uniqueKeyConstraintName('vote', 'ONE_VOTE', 0); // 'vote__one_vote__key1'
 */
export function uniqueKeyConstraintName(entity: string, code: string, index: number): string {
  return `${tableName(entity)}__${code.toLowerCase().replace(/[^a-z0-9_]/g, '_')}__key${index + 1}`;
}

/** Name of the allowed-values CHECK of an enum/status/tags field: `<table>__<column>__values`. */
export function valuesConstraintName(entity: string, field: string): string {
  return `${tableName(entity)}__${columnName(field)}__values`;
}

/** What a constraint name means, for mapping database errors to catalogue entries. */
export interface ConstraintMeaning {
  entity: string;
  /** Catalogue code (validation rules) or undefined for structural constraints. */
  code?: string;
  field?: string;
  kind: 'validation' | 'unique' | 'values';
}

/**
 * Every named constraint the migration creates, by name. Validation CHECKs whose rule needs other
 * rows are triggers instead; they raise their code directly and are not listed.
 */
export function constraintCatalogue(spec: AppSpec): Record<string, ConstraintMeaning> {
  const out: Record<string, ConstraintMeaning> = {};
  for (const [entity, e] of Object.entries(spec.entities)) {
    for (const [field, f] of Object.entries(e.fields)) {
      if (f.unique) out[uniqueConstraintName(entity, field)] = { entity, field, kind: 'unique' };
    }
    (e.unique ?? []).forEach((key, i) => {
      const field = key.fields[key.fields.length - 1];
      out[uniqueKeyConstraintName(entity, key.error, i)] = {
        entity,
        code: key.error,
        kind: 'unique',
        ...(field ? { field } : {}),
      };
    });
    (spec.validation[entity] ?? []).forEach((rule, i) => {
      const field = rule.kind === 'field' ? rule.field : rule.field;
      out[validationConstraintName(entity, rule.error, i)] = {
        entity,
        code: rule.error,
        kind: 'validation',
        ...(field ? { field } : {}),
      };
    });
  }
  return out;
}
