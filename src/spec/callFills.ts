import { isSingleLineKey } from '../outbox/singleLine.ts';
import { FIELD_TYPES } from './fieldTypes.ts';
import { profileEntity } from './profileEntity.ts';
import type { AppSpec, PayloadFill, ShapeType } from './types.ts';

/** The line that opens a call's fill in the document's code block (`ninefold doc` / `import`). */
export const FILL_MARKER = '// Filled by the database';

/** Where one payload key's value comes from when a transition of `entity` queues the call. */
export type FillSource =
  /** A value in the rule language over the row (`requester.email`, `'EUR'`, `id`). */
  | { kind: 'value'; text: string }
  /** Text with `{placeholders}`, each a value over the row. */
  | { kind: 'template'; text: string }
  /** One item per child row of `entity` whose `ref` field points at the row. */
  | { kind: 'rows'; entity: string; ref: string | undefined; items: readonly PayloadKeyFill[] };

export interface PayloadKeyFill {
  /** The payload key (without `?`). */
  key: string;
  /** Whether the key may be left out (`name?` in the shape). */
  optional: boolean;
  /** Its type in the payload shape; undefined when the key is not in the shape. */
  shape: ShapeType | undefined;
  source: FillSource;
  /** Written in `fill` (true) or implied by the key's name (`id`, `<entity>Id`, a field's name). */
  declared: boolean;
  /**
   * The value is single-line by nature (a subject, an address, a name: see `singleLinePayloadKey`):
   * the database replaces control characters and line breaks in it by spaces (finding 28.6).
   */
  singleLine: boolean;
}

/**
 * Whether a payload key's value is single-line by nature: by its name (`subject`, `to`, `cc`,
 * `bcc`, `replyTo`, `…Name`, `…Email`: singleLine.ts), by its shape type (`email`, `uuid`), or
 * because it is filled from one field of a single-line type (`requester.name`, `title`).
 */
export function singleLinePayloadKey(
  spec: AppSpec,
  entity: string,
  key: string,
  shape: ShapeType | undefined,
  source: FillSource,
): boolean {
  if (isSingleLineKey(key) || shape === 'email' || shape === 'uuid') return true;
  if (source.kind !== 'value') return false;
  // A field of the row (`title`) or one hop away (`requester.name`).
  const [first, second, ...rest] = source.text.trim().split('.');
  if (!first || rest.length > 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(first)) return false;
  const f = spec.entities[entity]?.fields[first];
  if (!f) return false;
  if (second === undefined) return !FIELD_TYPES[f.type]?.multiline;
  const target = f.type === 'ref' ? f.ref : f.type === 'user' ? profileEntity(spec) : undefined;
  const g = target ? spec.entities[target]?.fields[second] : undefined;
  return g !== undefined && !FIELD_TYPES[g.type]?.multiline;
}

/** A text with at least one `{…}` is a template; anything else is a value in the rule language. */
export function isTemplate(text: string): boolean {
  return /\{[^{}]*\}/.test(text);
}

/** A template cut into literal text and placeholders (the rule text inside `{…}`, with its offset). */
export function templateParts(
  text: string,
): ({ kind: 'text'; text: string } | { kind: 'value'; text: string; start: number })[] {
  const out: ({ kind: 'text'; text: string } | { kind: 'value'; text: string; start: number })[] = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push({ kind: 'value', text: m[1] ?? '', start: m.index + 1 });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** The payload shape's keys: name without `?` → [optional, type]. */
export function shapeKeys(shape: Record<string, ShapeType>): Map<string, [boolean, ShapeType]> {
  const out = new Map<string, [boolean, ShapeType]>();
  for (const [raw, t] of Object.entries(shape)) {
    const optional = raw.endsWith('?');
    out.set(optional ? raw.slice(0, -1) : raw, [optional, t]);
  }
  return out;
}

/** The fields of `child` that reference `parent` (`ref` fields; `user` fields for the profile entity). */
export function refsTo(spec: AppSpec, child: string, parent: string): string[] {
  const e = spec.entities[child];
  if (!e) return [];
  const profile = profileEntity(spec);
  return Object.entries(e.fields)
    .filter(([, f]) => (f.type === 'ref' && f.ref === parent) || (f.type === 'user' && profile === parent))
    .map(([n]) => n);
}

/** The field of `entity` a payload key names by itself: `id`, `<entity>Id`, or a field (files excepted). */
function impliedField(spec: AppSpec, entity: string, key: string): string | undefined {
  const e = spec.entities[entity];
  if (!e) return undefined;
  if (key === 'id' || key === `${entity}Id`) return 'id';
  if (Object.hasOwn(e.fields, key) && e.fields[key]?.type !== 'file') return key;
  return undefined;
}

function sourceOf(
  spec: AppSpec,
  entity: string,
  fill: PayloadFill,
  shape: ShapeType | undefined,
): FillSource {
  if (typeof fill === 'string') return { kind: isTemplate(fill) ? 'template' : 'value', text: fill };
  const refs = refsTo(spec, fill.rows, entity);
  const item =
    Array.isArray(shape) && typeof shape[0] === 'object' && !Array.isArray(shape[0]) ? shape[0] : {};
  return {
    kind: 'rows',
    entity: fill.rows,
    ref: refs.length === 1 ? refs[0] : undefined,
    items: keyFills(spec, fill.rows, item as Record<string, ShapeType>, fill.fill ?? {}),
  };
}

function keyFills(
  spec: AppSpec,
  entity: string,
  shape: Record<string, ShapeType>,
  fill: Record<string, PayloadFill> | undefined,
): PayloadKeyFill[] {
  const keys = shapeKeys(shape);
  const out: PayloadKeyFill[] = [];
  for (const [key, [optional, type]] of keys) {
    const declared = fill && Object.hasOwn(fill, key) ? fill[key] : undefined;
    if (declared !== undefined) {
      const source = sourceOf(spec, entity, declared, type);
      const singleLine = singleLinePayloadKey(spec, entity, key, type, source);
      out.push({ key, optional, shape: type, source, declared: true, singleLine });
      continue;
    }
    const field = impliedField(spec, entity, key);
    if (field) {
      const source: FillSource = { kind: 'value', text: field };
      const singleLine = singleLinePayloadKey(spec, entity, key, type, source);
      out.push({ key, optional, shape: type, source, declared: false, singleLine });
    }
  }
  // Keys written in `fill` that the shape lacks: kept, so `check` can name them.
  for (const [key, f] of Object.entries(fill ?? {}))
    if (!keys.has(key)) {
      const source = sourceOf(spec, entity, f, undefined);
      const singleLine = singleLinePayloadKey(spec, entity, key, undefined, source);
      out.push({ key, optional: true, shape: undefined, source, declared: true, singleLine });
    }
  return out;
}

/**
 * What the database fills in `call`'s payload when a transition of `entity` queues it: each key
 * the call's `fill` names, then each key the row implies (`id`, `<entity>Id`, a field's own name).
 * The client's `calls.<call>` input can give only the keys not listed here.
 *
 * @example
 * payloadFills(helpdesk, 'ticket', 'notifyRequester').map((f) => f.key);
 * // ['ticketId', 'to', 'subject', 'body']
 */
export function payloadFills(spec: AppSpec, entity: string, call: string): PayloadKeyFill[] {
  const c = Object.hasOwn(spec.calls.declared, call) ? spec.calls.declared[call] : undefined;
  if (!c || !spec.entities[entity]) return [];
  return keyFills(spec, entity, c.payload, c.fill);
}
