import type { FormField } from './formSchema.ts';

/**
 * Values a create form starts with from its address's query string: `/loans/new?book=<id>` opens
 * the new-loan form with the book chosen. Only fields the form shows and the user may set are
 * taken; a value the field cannot hold (a number that is not one, a value not among an enum's) is
 * ignored, so a link can never put into a form what the form itself would refuse to offer.
 *
 * @example
 * prefillValues(schema.fields, '?book=b1&days=14') // { book: 'b1', days: 14 }
 */
export function prefillValues(fields: readonly FormField[], search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = params.get(f.name);
    if (raw === null || !f.editable) continue;
    const v = valueFor(f, raw);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

function valueFor(f: FormField, raw: string): unknown {
  switch (f.type) {
    case 'number':
    case 'integer':
    case 'money': {
      const n = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(n) || (f.type === 'integer' && !Number.isInteger(n))) return undefined;
      return n;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'enum':
    case 'status':
      return f.values?.includes(raw) ? raw : undefined;
    case 'tags': {
      const items = raw.split(',').filter((t) => t !== '');
      return items.every((t) => !f.values || f.values.includes(t)) ? items : undefined;
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined;
    case 'datetime':
      return Number.isNaN(Date.parse(raw)) ? undefined : raw;
    case 'file':
      return undefined;
    default:
      return raw;
  }
}
