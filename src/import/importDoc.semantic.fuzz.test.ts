import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec } from '../spec/types.ts';
import { tasks } from './fixtures/tasks.ts';
import { type ImportResult, importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

/**
 * The document fuzz of issue 32: documents with sentences and rows removed, reordered, rephrased
 * and misspelt. Each gives the same specification or an error at a line — never a different
 * specification in silence. What "the same" means per kind of change:
 *
 * - reordered (sections, table rows whose order means nothing, columns, the sentences of an
 *   entity), rephrased into another form the format documents, or derived text removed: the
 *   same specification (normalised), or an error;
 * - a word misspelt outside code spans: the same specification up to free text (a misspelt label
 *   or message is what the author wrote), or an error;
 * - a meaningful line removed (a table row, a bullet, a sentence of facts): an error, the same
 *   specification, or one that differs only in what that line said (every difference lies under
 *   a specification path the original import placed on that line).
 *
 * The counts of each outcome are printed (`NINEFOLD_FUZZ_RUNS` raises the runs).
 */

const SEED: AppSpec = {
  ...tasks,
  calls: {
    declared: {
      notify: {
        description: 'Tells the assignee.',
        method: 'POST',
        path: '/notify/:id',
        service: 'mailer',
        payload: { taskId: 'uuid', 'note?': 'string' },
        response: { sent: 'boolean' },
        roles: ['lead'],
        error: 'NOT_YOURS',
      },
    },
  },
  entities: {
    ...tasks.entities,
    task: {
      ...(tasks.entities.task as AppSpec['entities'][string]),
      plural: 'Tasks',
      unique: [{ fields: ['title', 'owner'], error: 'TITLE_TOO_LONG' }],
    },
  },
  states: {
    task: {
      ...(tasks.states.task as AppSpec['states'][string]),
      transitions: {
        ...(tasks.states.task as AppSpec['states'][string]).transitions,
        reopen: {
          from: ['done'],
          to: 'open',
          roles: ['lead'],
          guard: 'assignee = me',
          guardError: 'NOT_YOURS',
          guards: [{ rule: 'dueOn is empty or dueOn >= today', error: 'DUE_IN_PAST' }],
          confirm: true,
          calls: ['notify'],
        },
      },
    },
  },
};

const DOC = renderDoc(SEED);
const ORIGINAL = importDoc(DOC);
const NORMAL = normalizeSpec(ORIGINAL.spec as AppSpec);

type Outcome = 'error' | 'same' | 'different';

function outcome(r: ImportResult, compare: (s: AppSpec) => unknown = normalizeSpec): Outcome {
  if (r.diagnostics.some((d) => d.severity === 'error') || r.spec === null) return 'error';
  const want = compare === normalizeSpec ? NORMAL : compare(ORIGINAL.spec as AppSpec);
  return JSON.stringify(sorted(compare(r.spec))) === JSON.stringify(sorted(want)) ? 'same' : 'different';
}

/** Keys sorted at every level, so object key order (which means nothing) does not count. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
  );
}

/** The specification with its free text (labels, help, messages, descriptions, titles) blanked. */
function withoutFreeText(spec: AppSpec): unknown {
  const c = JSON.parse(JSON.stringify(normalizeSpec(spec))) as AppSpec;
  c.purpose = { name: '', summary: '', users: [] };
  for (const e of Object.values(c.entities)) {
    e.label = '';
    delete e.plural;
    for (const f of Object.values(e.fields)) {
      delete f.label;
      delete f.help;
      if (f.values) f.values = f.values.map((v) => (typeof v === 'object' ? v.value : v));
    }
  }
  for (const st of Object.values(c.states)) {
    for (const s of Object.values(st.states)) {
      delete s.label;
      delete s.description;
    }
    for (const t of Object.values(st.transitions)) delete t.label;
  }
  for (const r of Object.values(c.roles.roles)) {
    r.label = '';
    delete r.description;
  }
  for (const s of Object.values(c.screens)) {
    s.title = '';
    delete s.shows;
  }
  for (const e of Object.values(c.errors)) e.message = '';
  // A constant's unit is a word shown with its value (`days`, `MB`, a currency code): free text too.
  for (const k of Object.values(c.constants)) {
    k.label = '';
    delete k.unit;
  }
  for (const k of Object.values(c.calls.declared)) k.description = '';
  return c;
}

/** Paths (dotted) where two JSON values differ. */
function diffPaths(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))) return [];
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return [path];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) =>
    diffPaths(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      path ? `${path}.${k}` : k,
    ),
  );
}

const LINES = DOC.split('\n');

/** The first line a change touched, for failure messages. */
function changedLine(doc: string): string {
  const lines = doc.split('\n');
  const i = lines.findIndex((l, j) => l !== LINES[j]);
  return i < 0 ? '(none)' : `line ${i + 1}: ${lines[i]}`;
}
const at = (n: number, max: number) => (max <= 0 ? 0 : n % max);

/** Consecutive `|` lines: [first line, last line]. */
const TABLES: [number, number][] = [];
for (let i = 0; i < LINES.length; i++) {
  if (!LINES[i]?.startsWith('|') || LINES[i - 1]?.startsWith('|')) continue;
  let j = i;
  while (LINES[j + 1]?.startsWith('|')) j++;
  TABLES.push([i, j]);
}
/** Tables whose row order is meaning: validation rules (an ordered list). */
const ORDERED = (first: number) => /^\| Rule \|/.test(LINES[first] ?? '');
const splitRow = (line: string) => line.split(/(?<!\\)\|/);

const REPHRASINGS: [RegExp, string][] = [
  [/\| yes \|/, '| ✓ |'],
  [/\| yes \|/, '| x |'],
  [/\| yes \|/, '| true |'],
  [/\| yes \|/, '| Yes |'],
  [/^## 2\. Screens and routes$/m, '## Screens'],
  [/^## 3\. Entities and fields$/m, '## Data model'],
  [/^## 4\. States and transitions$/m, '## 4'],
  [/^## 9\. Constants and limits$/m, '## Constants'],
  [/\| Guard \|/, '| Only when |'],
  [/\| Asks for \|/, '| Input |'],
  [/\| none \|/, '| - |'],
  [/; otherwise /, ', otherwise '],
  [/<br>then /, '<br>and then '],
  [/at most \{titleMax\} \(80\) characters/, 'at most {titleMax} characters'],
  [/Sorted by Created at, descending/, 'Sorted by Created at, newest first'],
  [/(?<=\| )[a-z][^|`()]*? \((`[^`|]+`)\)/, '$1'],
  [/Plural: Tasks\./, 'plural: Tasks.'],
  [/A row is shown by its Title\./, 'Title field: Title.'],
  [/\| never \|/, '| ✗ |'],
  [/\| always \|/, '| yes |'],
];

type Change = { kind: string; doc: string; removedLine?: number };

function reorder(n: number, m: number, k: number): Change {
  const choice = n % 4;
  const lines = [...LINES];
  if (choice === 0) {
    // Two sections of nine swap places.
    const starts = lines.flatMap((l, i) => (l.startsWith('## ') ? [i] : []));
    const a = at(m, starts.length);
    const b = at(k, starts.length);
    const parts = starts.map((s, i) => lines.slice(s, starts[i + 1] ?? lines.length));
    [parts[a], parts[b]] = [parts[b] as string[], parts[a] as string[]];
    return { kind: 'reorder sections', doc: [...lines.slice(0, starts[0]), ...parts.flat()].join('\n') };
  }
  const unordered = TABLES.filter(([f, l]) => !ORDERED(f) && l - f >= 3);
  const [first, last] = unordered[at(m, unordered.length)] as [number, number];
  if (choice === 1) {
    const a = first + 2 + at(k, last - first - 1);
    const b = first + 2 + at(k + 1, last - first - 1);
    [lines[a], lines[b]] = [lines[b] as string, lines[a] as string];
    return { kind: 'reorder rows', doc: lines.join('\n') };
  }
  if (choice === 2) {
    const width = splitRow(lines[first] as string).length - 2;
    const a = 1 + at(k, width);
    const b = 1 + at(k + 1, width);
    for (let i = first; i <= last; i++) {
      const cells = splitRow(lines[i] as string);
      [cells[a], cells[b]] = [cells[b] as string, cells[a] as string];
      lines[i] = cells.join('|');
    }
    return { kind: 'reorder columns', doc: lines.join('\n') };
  }
  const facts = lines.flatMap((l, i) => (l.startsWith('Stored in table') ? [i] : []));
  const i = facts[at(m, facts.length)] as number;
  const sentences = (lines[i] as string).split(/(?<=\.) /);
  sentences.push(sentences.splice(at(k, sentences.length), 1)[0] as string);
  lines[i] = sentences.join(' ');
  return { kind: 'reorder sentences', doc: lines.join('\n') };
}

function rephrase(n: number): Change {
  const [pattern, replacement] = REPHRASINGS[at(n, REPHRASINGS.length)] as [RegExp, string];
  return { kind: `rephrase ${pattern.source}`, doc: DOC.replace(pattern, replacement) };
}

/** A word of 3+ letters outside code spans and blocks, HTML comments and the title, with two letters swapped or one dropped. */
function misspell(n: number, m: number): Change {
  const candidates: [number, number, string][] = [];
  let fenced = false;
  LINES.forEach((line, i) => {
    // Code blocks hold a call's shapes: their keys are definitions, like keys in backticks.
    if (line.startsWith('```')) fenced = !fenced;
    if (i === 0 || fenced || line.startsWith('```') || line.startsWith('<!--')) return;
    const outside = line.replace(/`[^`]*`/g, (s) => ' '.repeat(s.length));
    for (const w of outside.matchAll(/[A-Za-z]{3,}/g)) candidates.push([i, w.index, w[0]]);
  });
  const [i, col, word] = candidates[at(n, candidates.length)] as [number, number, string];
  const p = 1 + at(m, word.length - 2);
  const typo =
    m % 2 === 0
      ? word.slice(0, p) + (word[p + 1] ?? '') + word[p] + word.slice(p + 2)
      : word.slice(0, p) + word.slice(p + 1);
  const lines = [...LINES];
  lines[i] = (lines[i] as string).slice(0, col) + typo + (lines[i] as string).slice(col + word.length);
  return { kind: 'misspell', doc: lines.join('\n') };
}

const DERIVED = [
  /^Every entity also has four columns/,
  /^A status only changes through/,
  /^Besides required fields/,
  /^For each entity: what each role may/,
  /^Every screen of the app/,
  /^_The application specification/,
];

function remove(n: number, m: number): Change {
  const lines = [...LINES];
  if (n % 3 === 0) {
    const derived = lines.flatMap((l, i) => (DERIVED.some((d) => d.test(l)) ? [i] : []));
    lines.splice(derived[at(m, derived.length)] as number, 1);
    return { kind: 'remove derived text', doc: lines.join('\n') };
  }
  if (n % 3 === 1) {
    const rows = TABLES.flatMap(([f, l]) => Array.from({ length: l - f - 1 }, (_, i) => f + 2 + i));
    const i = rows[at(m, rows.length)] as number;
    lines.splice(i, 1);
    return { kind: 'remove a row', doc: lines.join('\n'), removedLine: i + 1 };
  }
  const facts = lines.flatMap((l, i) => (l.startsWith('Stored in table') || l.startsWith('- ') ? [i] : []));
  const i = facts[at(m, facts.length)] as number;
  const line = lines[i] as string;
  if (line.startsWith('- ')) lines[i] = '';
  else {
    const sentences = line.split(/(?<=\.) /);
    sentences.splice(1 + at(m, sentences.length - 1), 1);
    lines[i] = sentences.join(' ');
  }
  return { kind: 'remove a sentence or bullet', doc: lines.join('\n'), removedLine: i + 1 };
}

const RUNS = Number(process.env.NINEFOLD_FUZZ_RUNS ?? 400);

describe('the document fuzz: the same specification or an error, never a different one in silence', () => {
  it('the seed imports to its specification', () => {
    expect(ORIGINAL.diagnostics).toEqual([]);
    expect(NORMAL).toEqual(normalizeSpec(SEED));
  });

  it(
    'removed, reordered, rephrased and misspelt documents',
    () => {
      const counts = new Map<string, Record<Outcome, number>>();
      const count = (kind: string, o: Outcome) => {
        const c = counts.get(kind) ?? { error: 0, same: 0, different: 0 };
        c[o] += 1;
        counts.set(kind, c);
      };
      fc.assert(
        fc.property(fc.nat(), fc.nat(), fc.nat(), fc.nat({ max: 3 }), (n, m, k, family) => {
          const change =
            family === 0
              ? reorder(n, m, k)
              : family === 1
                ? rephrase(n)
                : family === 2
                  ? misspell(n, m)
                  : remove(n, m);
          const r = importDoc(change.doc);
          for (const d of r.diagnostics) expect(d.at, d.message).toBeDefined();
          if (change.kind === 'misspell') {
            const o = outcome(r, withoutFreeText);
            count(change.kind, o);
            if (o === 'different') {
              const diff = diffPaths(
                withoutFreeText(r.spec as AppSpec),
                withoutFreeText(ORIGINAL.spec as AppSpec),
              );
              expect.fail(
                `a misspelt word gave a different specification in silence: ${diff.join(', ')} (${changedLine(change.doc)})`,
              );
            }
            return;
          }
          const o = outcome(r);
          count(change.kind.startsWith('rephrase') ? 'rephrase' : change.kind, o);
          if (o !== 'different') return;
          const diff = diffPaths(normalizeSpec(r.spec as AppSpec), NORMAL);
          if (change.removedLine !== undefined) {
            // Only what the removed line said may be missing.
            // An item of a list (`purpose.users.1`, `validation.task.0`) stands for the whole list: the rest shift.
            const here = [...ORIGINAL.positions]
              .filter(([, p]) => p.line === change.removedLine)
              .map(([path]) => path.replace(/(\.\d+)+$/, ''));
            const stray = diff.filter((d) => !here.some((h) => d === h || d.startsWith(`${h}.`)));
            expect(
              stray,
              `${change.kind} at line ${change.removedLine}: ${diff.join(', ')} (${LINES[change.removedLine - 1]})`,
            ).toEqual([]);
            return;
          }
          expect.fail(
            `${change.kind} gave a different specification in silence: ${diff.join(', ')} (${changedLine(change.doc)})`,
          );
        }),
        { numRuns: RUNS, seed: Number(process.env.NINEFOLD_FUZZ_SEED ?? 32) },
      );
      const table = [...counts].map(
        ([kind, c]) => `${kind}: ${c.same} same, ${c.error} error, ${c.different} different`,
      );
      console.log(`document fuzz (${RUNS} documents)\n${table.join('\n')}`);
    },
    10 * 60_000,
  );
});
