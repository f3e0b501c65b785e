import { tableByName } from '../../model/lookup.ts';
import { modelOf, type SpecOrModel } from '../../model/modelOf.ts';
import { ERROR_CODE_SHAPE } from '../../spec/specNames.ts';
import { type ConstraintMeaning, constraintCatalogue } from '../../sql/constraintNames.ts';
import { BackendError, BUILTIN_ERROR_CODES } from '../types.ts';

/**
 * What the mapper needs to know about the app: which codes exist and how tables/columns map back
 * to entities/fields. Build it once per spec with `errorContext(spec)`.
 */
export interface ErrorContext {
  /** Catalogue codes of the spec (its `errors`) plus the built-in ones. */
  codes: ReadonlySet<string>;
  /** Field a catalogue code belongs to (`entity.field`), from the spec's `errors[code].field`. */
  fieldOfCode: (code: string) => string | undefined;
  /** `entity.field` for a table/column pair, when the pair belongs to the spec. */
  fieldOf: (table: string | undefined, column: string | undefined) => string | undefined;
  entityOf: (table: string | undefined) => string | undefined;
  /** Named constraints of the migration (src/sql/constraintNames.ts). */
  constraints: Readonly<Record<string, ConstraintMeaning>>;
}

/** The subset of a Postgres error (pg's `DatabaseError`, PGlite's) the mapping reads. */
interface PgErrorLike {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
}

const BUILTIN = new Set<string>(BUILTIN_ERROR_CODES);
const CODE_SHAPE = ERROR_CODE_SHAPE;

/**
 * Builds the lookups the mapper uses from a specification.
 *
 * @example
 * const ctx = errorContext(spec);
 * mapDatabaseError(err, ctx);
 */
export function errorContext(app: SpecOrModel): ErrorContext {
  const model = modelOf(app);
  return {
    codes: new Set(model.errors.keys()),
    constraints: constraintCatalogue(model),
    fieldOfCode: (code) => model.errors.get(code)?.field,
    entityOf: (table) => tableByName(model, table)?.entity,
    fieldOf: (table, column) => {
      const t = tableByName(model, table);
      const c = column ? t?.byColumn.get(column) : undefined;
      return t && c ? `${t.entity}.${c.field}` : undefined;
    },
  };
}

const EMPTY_CONTEXT: ErrorContext = {
  codes: BUILTIN,
  fieldOfCode: () => undefined,
  fieldOf: () => undefined,
  entityOf: () => undefined,
  constraints: {},
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function parseParams(detail: string | undefined): Record<string, unknown> {
  if (!detail) return {};
  try {
    const parsed: unknown = JSON.parse(detail);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The catalogue code a constraint name encodes when it is not in the migration's catalogue.
 * Convention (src/sql/constraintNames.ts): `<table>__<code_lower>__<n>`; identifiers are folded
 * to lower case, so any `__`-separated part that is a known code counts, else a known code the
 * name ends with.
 */
export function codeFromConstraint(name: string | undefined, codes: ReadonlySet<string>): string | undefined {
  if (!name) return undefined;
  const upper = name.toUpperCase();
  for (const part of upper.split('__').slice(1)) if (codes.has(part)) return part;
  let best: string | undefined;
  for (const code of codes) {
    if ((upper === code || upper.endsWith(`_${code}`)) && (!best || code.length > best.length)) best = code;
  }
  return best;
}

/** `{entity: 'ticket', field: 'title'}` in raised detail → `ticket.title`. */
function fieldOfParams(params: Record<string, unknown>): string | undefined {
  const { entity, field } = params;
  if (typeof field !== 'string' || field === '') return undefined;
  return field.includes('.') || typeof entity !== 'string' ? field : `${entity}.${field}`;
}

/** `<table>__<column>__values` / `__unique` (structural constraints) → `entity.field`. */
function structuralField(constraint: string | undefined, ctx: ErrorContext): string | undefined {
  const m = constraint?.match(/^(.+)__(.+)__(values|unique)$/);
  return m ? ctx.fieldOf(m[1], m[2]) : undefined;
}

/** `Key (a, b)=(...)` → `a`. */
function keyColumn(detail: string | undefined): string | undefined {
  const m = detail?.match(/^Key \(([^,)]+)/);
  return m?.[1]?.trim().replace(/^"|"$/g, '');
}

/**
 * The browser refused to store the database's files (IndexedDB's `QuotaExceededError`, its name
 * kept across the worker by `browser/workerErrors.ts`), or Postgres ran out of disk (`53100`).
 */
function isStorageFull(e: PgErrorLike & { name?: unknown }): boolean {
  return e.name === 'QuotaExceededError' || /quota ?exceeded/i.test(str(e.message) ?? '');
}

function isConnectionLoss(e: PgErrorLike, code: string | undefined): boolean {
  if (code && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03'))
    return true;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND'].includes(code)) return true;
  const message = str(e.message) ?? '';
  return /closed|terminat|connection|leader changed|failed to fetch|network/i.test(message);
}

/**
 * Turns anything a database call threw into the one error the UI understands. Raw messages never
 * leave: unknown errors become `INTERNAL` (the original is kept on `cause` for logs only).
 *
 * @example
 * try { await tx.query(...) } catch (e) { throw mapDatabaseError(e, errorContext(spec)); }
 */
export function mapDatabaseError(error: unknown, ctx: ErrorContext = EMPTY_CONTEXT): BackendError {
  if (error instanceof BackendError) return error;
  const e: PgErrorLike = typeof error === 'object' && error !== null ? (error as PgErrorLike) : {};
  const code = str(e.code);
  const table = str(e.table);
  const constraint = str(e.constraint);
  const detail = str(e.detail);
  const out = (c: string, params: Record<string, unknown> = {}, field?: string): BackendError => {
    const be = new BackendError(c, params, field);
    Object.defineProperty(be, 'cause', { value: error, enumerable: false });
    return be;
  };

  switch (code) {
    case 'P0001': {
      const raised = str(e.message);
      if (raised && (ctx.codes.has(raised) || (ctx === EMPTY_CONTEXT && CODE_SHAPE.test(raised)))) {
        const params = parseParams(detail);
        const field = fieldOfParams(params) ?? ctx.fieldOfCode(raised);
        return out(raised, params, field);
      }
      return out('INTERNAL');
    }
    case '23514': {
      const meaning = constraint ? ctx.constraints[constraint] : undefined;
      const field = meaning?.field ? `${meaning.entity}.${meaning.field}` : structuralField(constraint, ctx);
      const c = meaning ? meaning.code : codeFromConstraint(constraint, ctx.codes);
      // A required text field left blank: REQUIRED on the field, as a missing value (23502).
      if (meaning?.kind === 'required') return out('REQUIRED', field ? { field } : {}, field);
      if (c) return out(c, {}, ctx.fieldOfCode(c) ?? field);
      return out('INVALID_VALUE', field ? { field } : {}, field);
    }
    case '23505': {
      const meaning = constraint ? ctx.constraints[constraint] : undefined;
      const field =
        (meaning?.field ? `${meaning.entity}.${meaning.field}` : undefined) ??
        ctx.fieldOf(table, keyColumn(detail));
      // A unique key over several fields raises its own catalogue code; a unique field, UNIQUE.
      const c = meaning ? meaning.code : codeFromConstraint(constraint, ctx.codes);
      return out(c ?? 'UNIQUE', field ? { field } : {}, field ?? (c ? ctx.fieldOfCode(c) : undefined));
    }
    case '23503': {
      const inUse = /still referenced/.test(detail ?? '');
      const other = detail?.match(/table "([^"]+)"/)?.[1];
      const field = inUse ? undefined : ctx.fieldOf(table, keyColumn(detail));
      return out(
        'REFERENCE',
        { reason: inUse ? 'in-use' : 'missing', entity: ctx.entityOf(other) ?? other ?? null },
        field,
      );
    }
    case '23502': {
      const field = ctx.fieldOf(table, str(e.column));
      return out('REQUIRED', field ? { field } : {}, field);
    }
    case '42501':
      return out('FORBIDDEN');
    case '40001':
    case '40P01':
    case '55P03':
      return out('CONFLICT');
    case '22P02':
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22023':
      return out('INVALID_VALUE', {}, ctx.fieldOf(table, str(e.column)));
    case '53100':
      return out('STORAGE_FULL');
    default:
      if (isStorageFull(e)) return out('STORAGE_FULL');
      if (isConnectionLoss(e, code)) return out('UNAVAILABLE');
      return out('INTERNAL');
  }
}
