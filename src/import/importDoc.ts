import type { Root, RootContent } from 'mdast';
import { validateSpec } from '../check/validateSpec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import type { AppSpec, SECTIONS } from '../spec/types.ts';
import { ImportContext } from './importContext.ts';
import { type Pos, parseMarkdown, posOf, rawOf, START, sectionsAt } from './markdownTree.ts';
import { readCalls } from './readCalls.ts';
import { readConstants } from './readConstants.ts';
import { readEntities } from './readEntities.ts';
import { readErrors } from './readErrors.ts';
import { readPurpose } from './readPurpose.ts';
import { readPermissions, readRoleTable } from './readRoles.ts';
import { readScreens } from './readScreens.ts';
import { readStates } from './readStates.ts';
import { readValidation } from './readValidation.ts';

/** One of the nine sections a document has (translations are not part of the nine-point format). */
type Section = (typeof SECTIONS)[number];

/** The nine sections and the words their headings may use (numbers are optional). */
const SECTION_WORDS: [Section, readonly string[]][] = [
  ['purpose', ['purpose', 'summary', 'overview']],
  ['screens', ['screens', 'routes', 'pages']],
  ['entities', ['entities', 'fields', 'data model', 'data']],
  ['states', ['states', 'transitions', 'lifecycle', 'workflow']],
  ['validation', ['validation']],
  ['roles', ['roles', 'permissions']],
  ['calls', ['calls', 'api']],
  ['errors', ['error', 'errors']],
  ['constants', ['constants', 'limits']],
];

/** What `importDoc` found: the specification (null when the document has errors) and every problem. */
export interface ImportResult {
  spec: AppSpec | null;
  /** The specification as read, before validation (null when the document itself could not be read). */
  draft: AppSpec | null;
  /** Problems, each with `at` (line and column in the Markdown) where one can be given. */
  diagnostics: Diagnostic[];
  /** Where each part of the specification was written: spec path → position in the Markdown. */
  positions: ReadonlyMap<string, Pos>;
  /** The document's `<!-- comments -->`, by the spec path of what follows each one. */
  comments: ReadonlyMap<string, readonly string[]>;
}

/**
 * Reads a nine-point document (the Markdown `ninefold doc` prints, or one written by hand in
 * the format of docs/nine-point-format.md) back into a specification, then validates it.
 * Pure and total: any text in, a result out; never throws.
 *
 * @example
 * const { spec, diagnostics } = importDoc(readFileSync('docs/helpdesk.md', 'utf8'));
 */
export function importDoc(markdown: string): ImportResult {
  const ctx = new ImportContext(markdown);
  const spec: AppSpec = {
    purpose: { name: '', summary: '', users: [] },
    screens: {},
    entities: {},
    states: {},
    validation: {},
    roles: { roles: {}, permissions: {} },
    calls: { declared: {} },
    errors: {},
    constants: {},
  };
  let root: Root | undefined;
  try {
    root = read(ctx, markdown, spec);
  } catch (e) {
    // A reader bug must still come out as a positioned problem, not as a crash of the caller.
    ctx.problem('doc/invalid-value', START, '', `the document could not be read: ${String(e)}`);
  }
  if (ctx.diagnostics.some((d) => d.severity === 'error')) {
    return {
      spec: null,
      draft: null,
      diagnostics: ctx.diagnostics,
      positions: ctx.positions,
      comments: new Map(),
    };
  }
  const { spec: valid, diagnostics } = validateSpec(spec);
  const located = diagnostics.map((d) => locate(d, ctx.positions));
  return {
    spec: valid,
    draft: spec,
    diagnostics: [...ctx.diagnostics, ...located],
    positions: ctx.positions,
    comments: root ? attachComments(root, spec, ctx.positions) : new Map(),
  };
}

/**
 * HTML comments in the document become comments in the TypeScript, above the part of the
 * specification written right after them (a comment describes what follows it).
 */
function attachComments(
  root: Root,
  spec: AppSpec,
  positions: ReadonlyMap<string, Pos>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const ordered = [...positions.entries()].sort(([, a], [, b]) => a.line - b.line || a.column - b.column);
  const visit = (node: { type: string; value?: string; position?: { start: Pos }; children?: unknown[] }) => {
    if (node.type === 'html' && node.value?.startsWith('<!--') && node.position) {
      const text = node.value
        .replace(/^<!--/, '')
        .replace(/-->\s*$/, '')
        .trim();
      const start = node.position.start;
      const next = ordered.find(
        ([, p]) => p.line > start.line || (p.line === start.line && p.column > start.column),
      );
      const path = next ? existing(spec, next[0]) : undefined;
      if (text !== '' && path) out.set(path, [...(out.get(path) ?? []), text]);
    }
    for (const c of (node.children ?? []) as (typeof node)[]) visit(c);
  };
  visit(root as unknown as Parameters<typeof visit>[0]);
  return out;
}

/** The longest prefix of `path` that names something in the specification. */
function existing(spec: AppSpec, path: string): string | undefined {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    let v: unknown = spec;
    for (const p of parts.slice(0, n))
      v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[p] : undefined;
    if (v !== undefined && !Array.isArray(v)) return parts.slice(0, n).join('.');
  }
  return undefined;
}

function read(ctx: ImportContext, markdown: string, spec: AppSpec): Root {
  const root = parseMarkdown(markdown);
  const sections = new Map<Section, RootContent[]>();
  const title = root.children.find((n) => n.type === 'heading' && n.depth === 1);
  for (const s of sectionsAt(root.children, 2)) {
    const kind = sectionKind(s.title);
    if (kind === undefined) continue;
    if (sections.has(kind)) {
      ctx.problem(
        'doc/duplicate',
        posOf(s.heading),
        kind,
        `section "${s.title}" is a second ${kind} section`,
        'write each of the nine sections once (merge the two)',
      );
      continue;
    }
    sections.set(kind, s.body);
    ctx.at(kind, posOf(s.heading));
  }
  if (title?.type === 'heading') {
    spec.purpose.name = rawOf(title, markdown)
      .replace(/^#+\s*/, '')
      .replace(/\s*#+$/, '');
    ctx.at('purpose.name', posOf(title));
  } else {
    ctx.problem(
      'doc/missing',
      START,
      'purpose.name',
      'the document has no title',
      'start it with "# <app name>"',
    );
  }
  for (const [kind] of SECTION_WORDS) {
    if (!sections.has(kind)) {
      const n = SECTION_WORDS.findIndex(([k]) => k === kind) + 1;
      ctx.problem(
        'doc/missing',
        START,
        kind,
        `section ${n} (${kind}) is missing`,
        `add "## ${n}. ${HEADINGS[kind]}" (see docs/nine-point-format.md)`,
      );
    }
  }
  const body = (k: Section) => sections.get(k) ?? [];
  readPurpose(ctx, body('purpose'), spec);
  readConstants(ctx, body('constants'), spec);
  readEntities(ctx, body('entities'), spec);
  readRoleTable(ctx, body('roles'), spec);
  readStates(ctx, body('states'), spec);
  readScreens(ctx, body('screens'), spec);
  readErrors(ctx, body('errors'), spec);
  readValidation(ctx, body('validation'), spec);
  readPermissions(ctx, body('roles'), spec);
  readCalls(ctx, body('calls'), spec);
  return root;
}

const HEADINGS: Record<Section, string> = {
  purpose: 'Purpose',
  screens: 'Screens and routes',
  entities: 'Entities and fields',
  states: 'States and transitions',
  validation: 'Validation rules',
  roles: 'Roles and permissions',
  calls: 'Calls',
  errors: 'Error catalogue',
  constants: 'Constants and limits',
};

/** `2. Screens and routes`, `Screens`, `§ 2 — Screens` → screens; a bare number names its section. */
function sectionKind(title: string): Section | undefined {
  const t = title.toLowerCase().trim();
  const number = /^(?:§\s*)?(\d)\b/.exec(t)?.[1];
  const words = t.replace(/^(?:§\s*)?\d+\s*[.):–—-]?\s*/, '');
  const byWords = SECTION_WORDS.find(([, ws]) =>
    ws.some((w) => words === w || words.startsWith(`${w} `)),
  )?.[0];
  if (byWords) return byWords;
  if (number !== undefined && words === '') return SECTION_WORDS[Number(number) - 1]?.[0];
  return undefined;
}

/** Gives a diagnostic from the checks a position: the nearest recorded spec path above its path. */
export function locate(d: Diagnostic, positions: ReadonlyMap<string, Pos>): Diagnostic {
  if (d.at) return d;
  // The checks write list items as `validation.ticket[2]`; positions are recorded as `validation.ticket.2`.
  let path = d.path.replace(/\[(\d+)\]/g, '.$1');
  for (;;) {
    const pos = positions.get(path);
    if (pos) return { ...d, at: { line: pos.line, column: pos.column } };
    const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    if (cut <= 0) break;
    path = path.slice(0, cut);
  }
  const section = positions.get(d.path.split('.')[0] ?? '');
  return { ...d, at: section ? { line: section.line, column: section.column } : { line: 1, column: 1 } };
}
