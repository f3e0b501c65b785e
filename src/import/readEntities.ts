import type { RootContent } from 'mdast';
import { humanize } from '../doc/labels.ts';
import { FIELD_TYPE_NAMES, FIELD_TYPE_WORDS, FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { AppSpec, EntitySpec, EnumValueSpec, FieldSpec } from '../spec/types.ts';
import { cellLines, unmark } from './cellLines.ts';
import { extraBlocks, flag, flagCell, type ImportContext, keyFromLabel, splitList } from './importContext.ts';
import {
  type Cell,
  codesOf,
  posOf,
  readTable,
  sectionsAt,
  tablesIn,
  textOf,
  unescapeMarkdown,
} from './markdownTree.ts';
import { entityNames, fieldNames } from './specNames.ts';

const FIELD_COLUMNS = {
  field: ['Field', 'Name', 'Key'],
  label: ['Label'],
  type: ['Type'],
  required: ['Required'],
  default: ['Default'],
  unique: ['Unique'],
  owner: ['Owner'],
  help: ['Help', 'Description', 'Notes'],
  list: ['In lists', 'List', 'Listed'],
  search: ['Searched', 'Search'],
  audited: ['In history', 'Audited'],
};

interface PendingField {
  entity: string;
  key: string;
  type: Cell;
  fallback: Cell;
  spec: FieldSpec;
  title?: string;
}

/**
 * Section 3: one `### Label (`key`)` block per entity, a sentence of entity facts and a table of
 * fields. Types are read in a second pass, once every entity and field is known, because a
 * reference or a currency field names another entity or field by its label.
 */
export function readEntities(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const pending: PendingField[] = [];
  const titles: { entity: string; label: string; pos: ReturnType<typeof posOf> }[] = [];
  const uniques: Unique[] = [];
  for (const block of sectionsAt(body, 3)) {
    const codes = codesOf(block.heading);
    const label = headingLabel(textOf(block.heading), codes[0]);
    const key = codes[0] ?? keyFromLabel(label);
    const path = `entities.${key}`;
    ctx.at(path, posOf(block.heading));
    if (Object.hasOwn(spec.entities, key)) {
      ctx.problem('doc/duplicate', posOf(block.heading), path, `the entity "${key}" is described twice`);
      continue;
    }
    const entity: EntitySpec = { label, fields: {} };
    for (const node of block.body) {
      if (node.type !== 'paragraph') continue;
      const facts = readFacts(textOf(node));
      for (const k of ['plural', 'title', 'profile', 'files', 'live', 'unique'] as const)
        if (facts[k] !== undefined) ctx.at(`${path}.${k}`, posOf(node));
      if (facts.plural) entity.plural = facts.plural;
      if (facts.title) titles.push({ entity: key, label: facts.title, pos: posOf(node) });
      if (facts.profile) entity.profile = true;
      if (facts.files) entity.files = true;
      if (facts.live) entity.live = true;
      for (const u of facts.unique ?? []) uniques.push({ entity: key, ...u, pos: posOf(node) });
      for (const sentence of facts.unknown ?? [])
        ctx.problem('doc/invalid-value', posOf(node), path, `cannot read "${sentence}"`, FACT_FORMS);
    }
    const table = tablesIn(block.body)[0];
    extraBlocks(ctx, block.body, 1, path, 'an entity has one table of fields');
    for (const row of table ? readTable(table, ctx.source, FIELD_COLUMNS, ctx) : []) {
      const keyCell = row.cell('field');
      const labelCell = row.cell('label');
      const fieldKey =
        keyCell.codes[0] ?? (keyCell.text || (labelCell.text ? keyFromLabel(labelCell.text) : ''));
      if (fieldKey === '') {
        ctx.problem(
          'doc/missing',
          row.pos,
          `${path}.fields`,
          'a field row without a name',
          'write the name in the first column, e.g. `dueAt`',
        );
        continue;
      }
      const fpath = `${path}.fields.${fieldKey}`;
      ctx.at(fpath, row.pos);
      if (Object.hasOwn(entity.fields, fieldKey)) {
        ctx.problem('doc/duplicate', row.pos, fpath, `the field "${fieldKey}" is listed twice`);
        continue;
      }
      const f: FieldSpec = { type: 'text' };
      if (labelCell.raw !== '' && labelCell.raw !== humanize(fieldKey)) f.label = labelCell.raw;
      const help = row.cell('help').raw;
      if (help !== '') f.help = help;
      const yes = (column: string, prop: string) => flagCell(ctx, row.cell(column), `${fpath}.${prop}`);
      if (yes('required', 'required')) f.required = true;
      if (/^yes,?\s+ignoring case$/i.test(row.cell('unique').text.trim())) f.unique = 'ignoreCase';
      else if (yes('unique', 'unique')) f.unique = true;
      if (yes('owner', 'owner')) f.owner = true;
      if (yes('audited', 'audited')) f.audited = true;
      const list = yes('list', 'list');
      if (list !== undefined) f.list = list;
      const search = yes('search', 'search');
      if (search !== undefined) f.search = search;
      entity.fields[fieldKey] = f;
      pending.push({
        entity: key,
        key: fieldKey,
        type: row.cell('type'),
        fallback: row.cell('default'),
        spec: f,
      });
    }
    spec.entities[key] = entity;
  }
  for (const p of pending) readType(ctx, spec, p);
  for (const p of pending) readDefault(ctx, p);
  for (const u of uniques) readUnique(ctx, spec, u);
  for (const t of titles) {
    const field = ctx.resolve(
      fieldNames(spec, t.entity, false),
      t.label,
      'field',
      t.pos,
      `entities.${t.entity}.title`,
    );
    const e = spec.entities[t.entity];
    if (field && e) e.title = field;
  }
}

interface Unique {
  entity: string;
  fields: string;
  together: boolean;
  error: string;
  ignoreCase?: boolean;
  pos: ReturnType<typeof posOf>;
}

/**
 * `No two rows have the same Email` makes the field unique (as `yes` in the Unique column);
 * with `(error `CODE`)`, or over several fields `together`, it is a unique key raising that code.
 */
function readUnique(ctx: ImportContext, spec: AppSpec, u: Unique): void {
  const e = spec.entities[u.entity];
  const path = `entities.${u.entity}.unique`;
  ctx.at(path, u.pos);
  const names = splitList(u.fields);
  const fields = names.flatMap((t) => {
    const f = ctx.resolve(fieldNames(spec, u.entity, false), t, 'field', u.pos, path);
    return f ? [f] : [];
  });
  if (!e || fields.length !== names.length) return;
  const one = fields.length === 1 ? e.fields[fields[0] as string] : undefined;
  if (one && u.error === '') {
    ctx.at(`entities.${u.entity}.fields.${fields[0]}.unique`, u.pos);
    one.unique = u.ignoreCase ? 'ignoreCase' : true;
    return;
  }
  if (fields.length > 1 && !u.together) {
    ctx.problem(
      'doc/invalid-value',
      u.pos,
      path,
      `"the same ${u.fields}" does not say whether the fields are unique each or together`,
      `write "No two rows have the same ${u.fields} together (error \`CODE\`)" for one key over them, or one sentence per field`,
    );
    return;
  }
  if (u.error === '') {
    ctx.problem(
      'doc/missing',
      u.pos,
      path,
      `the unique key over ${u.fields} has no error code`,
      `end the sentence with "(error \`CODE\`)", the code raised when a row would repeat them`,
    );
    return;
  }
  e.unique = [...(e.unique ?? []), { fields, error: u.error, ...(u.ignoreCase ? { ignoreCase: true } : {}) }];
}

/** `Expense line (`line`)` → `Expense line`. */
function headingLabel(text: string, key: string | undefined): string {
  if (key === undefined) return text.trim();
  const i = text.lastIndexOf(`(${key})`);
  const label = (i >= 0 ? text.slice(0, i) : text.replace(key, '')).trim();
  return label === '' ? humanize(key) : label;
}

interface Facts {
  /** `No two rows have the same A, B together, ignoring case (error CODE)`: labels, `together`, case, the code. */
  unique?: { fields: string; together: boolean; error: string; ignoreCase?: boolean }[];
  plural?: string;
  title?: string;
  profile?: boolean;
  files?: boolean;
  live?: boolean;
  /** Sentences that say none of the above. */
  unknown?: string[];
}

/** The sentences an entity's paragraph may hold, for the suggestion when one is not understood. */
const FACT_FORMS =
  'write one of "Plural: <plural>.", "A row is shown by its <field>.", "Its rows are the app\'s users.", ' +
  '"Its rows are files.", "Changes appear live.", "No two rows have the same <field> (error `CODE`).", ' +
  '"No two rows have the same <field>, <field> together (error `CODE`)."; put notes in an HTML comment (<!-- … -->)';

/** The sentence under an entity's heading: plural, title field, profile, files, live, unique keys. */
function readFacts(text: string): Facts {
  const facts: Facts = {};
  for (const raw of text.split(/(?<=\.)\s+/)) {
    const s = raw.trim().replace(/\.$/, '');
    const lower = s.toLowerCase();
    if (s === '') continue;
    if (lower.startsWith('plural:')) facts.plural = s.slice('plural:'.length).trim();
    else if (lower.startsWith('a row is shown by its '))
      facts.title = s.slice('a row is shown by its '.length).trim();
    else if (lower.startsWith('title field:')) facts.title = s.slice('title field:'.length).trim();
    else if (/^its rows are the app['’]s users\b/.test(lower)) facts.profile = true;
    else if (/^its rows are files\b/.test(lower)) facts.files = true;
    else if (/^changes appear live\b/.test(lower) || lower === 'live') facts.live = true;
    // Derived: `doc` prints the table's name; the importer works it out again.
    else if (/^stored in table \S+$/.test(lower) || lower === 'no fields of its own') continue;
    else if (lower.startsWith('no two rows have the same ')) {
      const m =
        /^no two rows have the same (.*?)( together)?(,? ignoring case)?(?:\s*\(error\s+([^)]*)\))?$/i.exec(
          s,
        );
      const fields = m?.[1]?.trim() ?? '';
      if (fields === '') facts.unknown = [...(facts.unknown ?? []), raw.trim()];
      else
        facts.unique = [
          ...(facts.unique ?? []),
          {
            fields,
            together: m?.[2] !== undefined,
            error: (m?.[4] ?? '').trim(),
            ...(m?.[3] ? { ignoreCase: true } : {}),
          },
        ];
    } else facts.unknown = [...(facts.unknown ?? []), raw.trim()];
  }
  return facts;
}

/** Every type as the document words it: `one of: text, long text, …, reference to <entity>, …`. */
const TYPE_HINT = `one of: ${FIELD_TYPE_NAMES.map((t) => {
  const { words, rule } = FIELD_TYPES[t];
  return rule === 'enum' ? `${words}: \`a\`, \`b\`` : rule === 'ref' ? `${words} to <entity>` : words;
}).join(', ')}`;

/**
 * The type column: `one of: `a`, `b``, `reference to Claim; the row is removed when …`,
 * `money, currency in Currency`, `user (Person)`, `file: `image/*``, `tags from: …`.
 */
function readType(ctx: ImportContext, spec: AppSpec, p: PendingField): void {
  const path = `entities.${p.entity}.fields.${p.key}`;
  // `;` separates the parts, except the one ending an escaped entity reference in a label (`\&amp;`).
  const [main = '', ...rest] = p.type.raw.split(/(?<!\\&#?[A-Za-z0-9]+);/).map(unescapeMarkdown);
  const plain = main.replace(/`/g, '').trim();
  const lower = plain.toLowerCase();
  const match = FIELD_TYPE_WORDS.find(([w]) => lower.startsWith(w));
  if (!match) {
    ctx.problem(
      'doc/invalid-value',
      p.type.pos,
      `${path}.type`,
      p.type.text === '' ? 'the field has no type' : `unknown type "${plain}"`,
      TYPE_HINT,
    );
    return;
  }
  const [word, type] = match;
  const f = p.spec;
  f.type = type;
  const after = plain.slice(word.length).replace(/^[\s:,]+/, '');
  // Only the code spans of the main clause (not of an `; on delete` remark) are values.
  const mainCodes = p.type.codes.slice(0, countCodes(main));
  switch (type) {
    case 'enum':
      f.values = mainCodes.length > 0 ? readValues(p.type) : splitWords(after);
      break;
    case 'tags':
      if (mainCodes.length > 0) f.values = readValues(p.type);
      break;
    case 'file':
      if (mainCodes.length > 0) f.accept = mainCodes;
      break;
    case 'money': {
      // `money in `EUR`` (a code or a constant's name): the field's fixed currency.
      const fixed = /^in\s+(\S+)$/i.exec(after)?.[1];
      if (fixed !== undefined) {
        f.currency = mainCodes[0] ?? fixed;
        break;
      }
      const m = after.replace(/^currency in\s+/i, '');
      if (m !== after || /^currency/i.test(after)) {
        const field = ctx.resolve(
          fieldNames(spec, p.entity, false),
          m,
          'currency field',
          p.type.pos,
          `${path}.currencyField`,
        );
        if (field) f.currencyField = field;
      }
      break;
    }
    case 'ref': {
      const target = (mainCodes[0] ?? after.replace(/^to\s+/i, '')).trim();
      if (target === '') {
        ctx.problem(
          'doc/missing',
          p.type.pos,
          `${path}.ref`,
          'a reference names the entity it points to',
          'write `reference to <entity label>`',
        );
      } else {
        const e = ctx.resolve(entityNames(spec), target, 'entity', p.type.pos, `${path}.ref`);
        if (e) f.ref = e;
      }
      break;
    }
    default:
      // `user (Person)`: what follows in parentheses is derived; anything else is not understood.
      // `status: `open`, … (see section 4)` lists the states of section 4: derived too.
      if (type !== 'status' && after !== '' && !/^\(.*\)$/.test(after)) unreadableType(ctx, p, path, after);
      break;
  }
  const ruled = ruleRemarks(ctx, p, rest, path, f);
  const remark = rest
    .filter((_, i) => !ruled.has(i))
    .join(';')
    .toLowerCase()
    .trim();
  if (remark === '') return;
  if ((type === 'ref' || type === 'user') && (remark.includes('removed when') || remark.includes('cascade')))
    f.onDelete = 'cascade';
  else if (
    (type === 'ref' || type === 'user') &&
    (remark.includes('cannot be deleted') || remark.includes('restrict'))
  )
    f.onDelete = 'restrict';
  else if (
    (type === 'ref' || type === 'user') &&
    (remark.includes('emptied when') || remark.includes('set null'))
  )
    f.onDelete = 'set null';
  else unreadableType(ctx, p, path, remark);
}

/**
 * `; computed as `rule``: the server computes the field; `; read only when `rule``: who may read
 * it. Each rule is the code span of its own part. Returns the parts read.
 */
function ruleRemarks(
  ctx: ImportContext,
  p: PendingField,
  rest: readonly string[],
  path: string,
  f: FieldSpec,
): Set<number> {
  const computed = ruleRemark(
    ctx,
    p,
    rest,
    /^\s*computed as\b/i,
    `${path}.computed`,
    'computed as',
    'hours * rate',
    (r) => {
      f.computed = r;
    },
  );
  const read = ruleRemark(
    ctx,
    p,
    rest,
    /^\s*read only when\b/i,
    `${path}.read`,
    'read only when',
    'me is staff',
    (r) => {
      f.read = r;
    },
  );
  return new Set([computed, read]);
}

/** Finds the part of the Type cell `words` starts, reads its rule (its code span); its index or -1. */
function ruleRemark(
  ctx: ImportContext,
  p: PendingField,
  rest: readonly string[],
  words: RegExp,
  path: string,
  phrase: string,
  example: string,
  set: (rule: string) => void,
): number {
  const at = rest.findIndex((r) => words.test(r));
  if (at < 0) return at;
  const rule = /`([^`]+)`/.exec(rest[at] ?? '')?.[1]?.trim();
  if (rule !== undefined && rule !== '') set(rule);
  else
    ctx.problem(
      'doc/missing',
      p.type.pos,
      path,
      `no rule after "${phrase}"`,
      `write "${phrase} \`${example}\`"`,
    );
  return at;
}

function unreadableType(ctx: ImportContext, p: PendingField, path: string, words: string): void {
  ctx.problem(
    'doc/invalid-value',
    p.type.pos,
    `${path}.type`,
    `cannot read "${words}" in the type "${p.type.text}"`,
    'a reference or user field may add "; the row is removed when its … is deleted", "; the … cannot be deleted while this row points to it" or "; emptied when the … is deleted"; see docs/nine-point-format.md for the types',
  );
}

function countCodes(text: string): number {
  let n = 0;
  let inCode = false;
  let run = 0;
  let open = 0;
  for (let i = 0; i <= text.length; i++) {
    if (text[i] === '`') run++;
    else {
      if (run > 0) {
        if (!inCode) {
          inCode = true;
          open = run;
        } else if (run === open) {
          inCode = false;
          n++;
        }
      }
      run = 0;
    }
  }
  return n;
}

/**
 * `` `low`, `urgent` (label: Very urgent, color: red) `` → `['low', { value: 'urgent', label: …, color: … }]`.
 */
/**
 * A value written as a number (`45`) is read as one: the document prints `45` and `'45'` alike,
 * `check` refuses having both, and a spec that wrote a number gets it back. `007` stays text.
 */
function enumValueOf(text: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(text) && String(Number(text)) === text ? Number(text) : text;
}

function readValues(cell: Cell): (string | number | EnumValueSpec)[] {
  const line = cellLines(cell.node)[0];
  if (!line) return [];
  const colon = line.marked.indexOf(':');
  const list = (colon >= 0 ? line.marked.slice(colon + 1) : line.marked).split(';')[0] ?? '';
  return splitList(list).flatMap((item): (string | number | EnumValueSpec)[] => {
    const m = /^\uE000(\d+)\uE000\s*(?:\((.*)\))?$/s.exec(item.trim());
    if (!m) return [unmark(line, item)];
    const value = enumValueOf(line.codes[Number(m[1])] ?? '');
    const details = m[2] === undefined ? '' : unmark(line, m[2]);
    if (details === '') return [value];
    const v: EnumValueSpec = { value };
    const colorAt = details.search(/(^|,\s*)colou?r:/i);
    const labelPart = colorAt >= 0 ? details.slice(0, colorAt) : details;
    const label = /^\s*label:\s*(.*)$/is.exec(labelPart)?.[1]?.trim();
    if (label) v.label = label;
    if (colorAt >= 0)
      v.color = details
        .slice(colorAt)
        .replace(/^,?\s*colou?r:\s*/i, '')
        .trim();
    return [v];
  });
}

function splitWords(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const DEFAULT_WORDS = new Map<string, FieldSpec['default']>([
  ['the current user', 'me'],
  ['current user', 'me'],
  ['me', 'me'],
  ['the current time', 'now'],
  ['now', 'now'],
  ['today', 'today'],
  ['empty', null],
  ['null', null],
]);

/** The default column: `the current user`, `the current time`, `today`, `empty`, yes/no, or a literal in code. */
function readDefault(ctx: ImportContext, p: PendingField): void {
  const cell = p.fallback;
  const text = cell.text.trim();
  if (text === '') return;
  const f = p.spec;
  const lower = text.toLowerCase();
  const literal = cell.codes.length === 1 && text === `${cell.codes[0]}` ? cell.codes[0] : undefined;
  const word = literal === undefined ? DEFAULT_WORDS.get(lower) : undefined;
  if (word !== undefined) {
    f.default = word;
    return;
  }
  const value = literal ?? text;
  if (f.type === 'boolean') {
    const b = flag(value);
    if (b === undefined) {
      ctx.problem(
        'doc/invalid-value',
        cell.pos,
        `entities.${p.entity}.fields.${p.key}.default`,
        `"${value}" is not yes or no`,
      );
      return;
    }
    f.default = b;
    return;
  }
  if (f.type === 'number' || f.type === 'integer' || f.type === 'money') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) {
      ctx.problem(
        'doc/invalid-value',
        cell.pos,
        `entities.${p.entity}.fields.${p.key}.default`,
        `"${value}" is not a number`,
      );
      return;
    }
    f.default = n;
    return;
  }
  f.default = value;
}
