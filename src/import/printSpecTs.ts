import { blockCommentLine, jsString, lineComment } from '../printers/codeText.ts';
import { type AppSpec, SECTIONS } from '../spec/types.ts';

/** Options for `printSpecTs`. */
export interface PrintOptions {
  /** Where `defineApp` is imported from: `ninefold` in a project, a relative path inside this repository. */
  importFrom?: string;
  /** Comments to print above a part of the specification, by spec path (`entities.ticket`). */
  comments?: ReadonlyMap<string, readonly string[]>;
  /** A line for the file's header comment (e.g. which document it came from). */
  header?: string;
}

const WIDTH = 110;

/**
 * Keys in the order a person expects to read them, for every object that is not a record of
 * names (entity, field, screen… names keep the document's order).
 */
const KEY_ORDER = [
  // purpose
  'name',
  'summary',
  'users',
  // screen
  'route',
  'kind',
  'title',
  'shows',
  'entity',
  'nav',
  'columns',
  'filters',
  'sort',
  'where',
  'related',
  'fields',
  'component',
  'widgets',
  // entity and field
  'type',
  'label',
  'plural',
  'profile',
  'files',
  'live',
  'help',
  'description',
  'required',
  'default',
  'unique',
  'ref',
  'onDelete',
  'owner',
  'values',
  'currencyField',
  'currency',
  'computed',
  'accept',
  'list',
  'search',
  // states
  'field',
  'initial',
  'initialWhen',
  'state',
  'states',
  'transitions',
  'final',
  'from',
  'to',
  'roles',
  'guard',
  'guardError',
  'input',
  'optionalInput',
  'set',
  'confirm',
  'calls',
  // validation
  'rule',
  'when',
  'minLength',
  'maxLength',
  'min',
  'max',
  'pattern',
  'format',
  // roles
  'inherits',
  'signup',
  'permissions',
  'read',
  'create',
  'update',
  'delete',
  // calls
  'declared',
  'method',
  'path',
  'service',
  'payload',
  'response',
  'error',
  'fill',
  'rows',
  // errors and constants
  'message',
  'severity',
  'params',
  'value',
  'unit',
];

/** Paths (with `*` for any name) whose object is a record keyed by names: keep its order. */
const NAMED = [
  'screens',
  'entities',
  'entities.*.fields',
  'states',
  'states.*.states',
  'states.*.transitions',
  'states.*.transitions.*.set',
  'validation',
  'roles.roles',
  'roles.permissions',
  'roles.permissions.*',
  'calls.declared',
  'calls.declared.*.payload',
  'calls.declared.*.response',
  'calls.declared.*.fill',
  'calls.declared.*.fill.*.fill',
  'errors',
  'errors.*.params',
  'constants',
];

/**
 * The specification as a readable `defineApp(...)` TypeScript module: two-space indentation,
 * objects on one line when they fit, keys in a stable reading order, comments where the
 * document had them. Pure; the output is what `ninefold import` writes.
 *
 * @example
 * writeFileSync('spec.ts', printSpecTs(spec, { importFrom: 'ninefold' }));
 */
export function printSpecTs(spec: AppSpec, options: PrintOptions = {}): string {
  const from = options.importFrom ?? 'ninefold';
  const header = [
    '/**',
    ` * ${blockCommentLine(spec.purpose.name)}: the application specification.`,
    ...(options.header ? [' *', ` * ${blockCommentLine(options.header)}`] : []),
    ' */',
  ];
  const body = value(spec, '', '', options.comments ?? new Map());
  return `import { defineApp } from ${quote(from)};\n\n${header.join('\n')}\nexport default defineApp(${body});\n`;
}

function value(
  v: unknown,
  path: string,
  indent: string,
  comments: ReadonlyMap<string, readonly string[]>,
): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const items = v.map((x, i) => value(x, `${path}.${i}`, `${indent}  `, comments));
    const flat = `[${items.join(', ')}]`;
    if (fits(flat, indent) && !items.some((i) => i.includes('\n'))) return flat;
    return `[\n${items.map((i) => `${indent}  ${i},`).join('\n')}\n${indent}]`;
  }
  if (typeof v !== 'object') return 'undefined';
  const named = isNamed(path);
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (path === '') entries.sort(([a], [b]) => SECTIONS.indexOf(a as never) - SECTIONS.indexOf(b as never));
  else if (!named) entries.sort(([a], [b]) => rank(a) - rank(b));
  const child = (k: string) => (path === '' ? k : `${path}.${k}`);
  const members = entries.map(([k, x]) => `${key(k)}: ${value(x, child(k), `${indent}  `, comments)}`);
  const hasComments = entries.some(([k]) => comments.has(child(k)));
  const flat = members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  if (!hasComments && path !== '' && fits(flat, indent) && !members.some((m) => m.includes('\n')))
    return flat;
  const lines = entries.map(([k], i) => {
    const notes = (comments.get(child(k)) ?? []).map((c) => lineComment(c, `${indent}  // `));
    return [...notes, `${indent}  ${members[i]},`].join('\n');
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function fits(text: string, indent: string): boolean {
  return !text.includes('\n') && indent.length + text.length <= WIDTH - 20;
}

function rank(k: string): number {
  const i = KEY_ORDER.indexOf(k);
  return i < 0 ? KEY_ORDER.length : i;
}

function isNamed(path: string): boolean {
  const parts = path.split('.');
  return (
    NAMED.some((p) => {
      const q = p.split('.');
      return q.length === parts.length && q.every((x, i) => x === '*' || x === parts[i]);
    }) || /^calls\.declared\.[^.]+\.(payload|response)\./.test(path)
  );
}

function key(k: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : quote(k);
}

/** Controls other than \n, \r and tab (escaped by name), and the line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A TypeScript string literal: single quotes, or double quotes when that avoids escaping. */
function quote(s: string): string {
  if (s.includes("'") && !s.includes('"')) return jsString(s);
  return `'${s
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}
