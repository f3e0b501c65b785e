import { FIELD_TYPES } from './fieldTypes.ts';
import type { AppSpec, FieldSpec } from './types.ts';

/**
 * Ceilings every value gets even when the specification says nothing (docs/security.md, "Values"):
 * text fields without a `maxLength` rule are at most `textMaxLength` characters (default 10,000),
 * long text at most `longTextMaxLength` (default 100,000) — a constant of the same name in the
 * specification overrides the default. The database (a CHECK) and the browser (`formSchema`) read
 * the ceiling from here, so they agree.
 */
export const DEFAULT_TEXT_MAX_LENGTH = 10_000;
export const DEFAULT_LONGTEXT_MAX_LENGTH = 100_000;

function constantOr(spec: Pick<AppSpec, 'constants'>, name: string, fallback: number): number {
  const v = spec.constants[name]?.value;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * The default length ceiling of a field, or undefined when the field is not free text or a
 * `maxLength` field rule of the specification already bounds it.
 */
export function textCeiling(
  spec: Pick<AppSpec, 'constants' | 'validation'>,
  entity: string,
  field: string,
  f: FieldSpec,
): number | undefined {
  const freeText = FIELD_TYPES[f.type]?.freeText;
  if (freeText === undefined) return undefined;
  const bounded = (spec.validation[entity] ?? []).some(
    (r) => r.kind === 'field' && r.field === field && r.maxLength !== undefined,
  );
  if (bounded) return undefined;
  return freeText === 'lines'
    ? constantOr(spec, 'longTextMaxLength', DEFAULT_LONGTEXT_MAX_LENGTH)
    : constantOr(spec, 'textMaxLength', DEFAULT_TEXT_MAX_LENGTH);
}

/**
 * Ceilings of the implied columns of a files entity: a file name as file systems allow it, a
 * media type as RFC 6838 allows it (127 + `/` + 127); a hosted object path is `<uuid>/<name>`.
 */
export const FILE_NAME_MAX_LENGTH = 255;
export const MIME_TYPE_MAX_LENGTH = 255;
export const STORAGE_PATH_MAX_LENGTH = 36 + 1 + FILE_NAME_MAX_LENGTH;

/** How long delivered outbox calls are kept, in days, unless the constant `outboxRetentionDays` says otherwise. */
export const DEFAULT_OUTBOX_RETENTION_DAYS = 30;

/**
 * Days a delivered call stays in the outbox (its response, for audit) before the deliverer's
 * claim purges it: the constant `outboxRetentionDays` of the specification, else 30.
 */
export function outboxRetentionDays(spec: Pick<AppSpec, 'constants'>): number {
  return constantOr(spec, 'outboxRetentionDays', DEFAULT_OUTBOX_RETENTION_DAYS);
}

/** Number fields refuse NaN and ±Infinity; date and datetime fields refuse ±infinity. */
export function mustBeFinite(f: FieldSpec): 'number' | 'date' | undefined {
  const rule = FIELD_TYPES[f.type]?.rule;
  if (rule === 'number') return 'number';
  if (rule === 'date' || rule === 'datetime') return 'date';
  return undefined;
}
