import type { AppModel } from '../model/appModel.ts';
import { payloadFillsOf } from '../model/outbox.ts';
import type { TableNode } from '../model/table.ts';
import { columnName } from '../naming.ts';
import { FILL_MARKER } from '../spec/callFills.ts';
import { FIELD_TYPES, type FieldRuleKind } from '../spec/fieldTypes.ts';
import type { DeclaredCallSpec, FieldSpec } from '../spec/types.ts';
import { entityLabel, roleLabel, transitionLabel } from './docLabels.ts';
import { block, bullets, code, joinBlocks, table } from './markdown.ts';
import { createFields, rolesAllowed, updateFields } from './payloadFields.ts';
import { rolesWords } from './renderStates.ts';
import { errorWords } from './renderValidation.ts';
import { routeParams } from './routeParams.ts';
import { fieldTypeText, type Member, membersText, shapeText } from './shapes.ts';
import { parseSort } from './sortOrder.ts';

/** Rows per page in derived list calls. */
const PAGE_SIZE = 50;

/**
 * Section 7: every call the app makes. Derived calls (list, get, create, update, delete and one
 * per transition) in Supabase's REST form (PostgREST), with their payloads; then the calls
 * declared to other hosted services.
 *
 * @example
 * renderCalls(model); // '## 7. Calls\n\n...| List | `GET /rest/v1/loan?select=*&...`'
 */
export function renderCalls(model: AppModel): string {
  const declared = [...model.calls];
  return joinBlocks([
    '## 7. Calls',
    'The app talks to the backend through Supabase’s REST interface (PostgREST); the embedded backend answers ' +
      'the same calls. Every call carries the signed-in user’s session, and the database applies the ' +
      'permissions of section 6 and the rules of sections 4 and 5 to each one, so a call the user may not ' +
      'make fails with an error from section 8. Create and update send `Prefer: return=representation` and ' +
      'get the saved row back; lists send `Prefer: count=exact` and get the total in the `Content-Range` header. ' +
      'An update names the version of the row it read: if someone changed the row since, nothing is saved and ' +
      'the app says so (a transition may name the version too). A transition returns the row as it is afterwards; ' +
      'its `p_input` is keyed by the field names of section 3. ' +
      'Table, column and function names are the snake_case of the names in this document.',
    'In the payloads, `uuid`, `email`, `date` and `datetime` are strings in that format, `integer` is a whole ' +
      'number, `?` marks what may be left out and `| null` what may be empty.',
    '### Derived calls',
    ...[...model.tables.keys()].map((entity) => renderEntityCalls(model, entity)),
    '### Declared calls',
    declared.length === 0
      ? 'The app calls no other service.'
      : 'Calls to other hosted services (Edge Functions or external hosts). The database queues each ' +
        'in its outbox: a call a transition lists when that transition commits (never on its own), any ' +
        'other when the app asks for it; a deliverer sends them with retries and an `Idempotency-Key` header.',
    ...declared.map(([name, c]) => renderDeclared(model, name, c)),
  ]);
}

function renderEntityCalls(model: AppModel, entity: string): string {
  const node = model.tables.get(entity);
  if (!node) return '';
  const e = node.spec;
  const t = node.table;
  const history = node.historyTable ?? '';
  const who = rolesAllowed(model, entity);
  const roles = (rs: readonly string[]) =>
    rs.length === 0 ? 'nobody' : rs.map((r) => roleLabel(model, r)).join(', ');
  const transitions = model.transitions.filter((tr) => tr.entity === entity);
  const rows = [
    [
      'List',
      code(
        `GET /rest/v1/${node.readTable}?select=*&{filters}&order=${listOrder(model, entity)}&limit=${PAGE_SIZE}&offset=0`,
      ),
      roles(who.read),
    ],
    // Reads go to the masking view where some field is read-restricted (src/sql/emitFieldReads.ts).
    ['Get one', code(`GET /rest/v1/${node.readTable}?id=eq.{id}`), roles(who.read)],
    ['Create', code(`POST /rest/v1/${t}`), roles(who.create)],
    ['Update', code(`PATCH /rest/v1/${t}?id=eq.{id}&version=eq.{version}`), roles(who.update)],
    ['Delete', code(`DELETE /rest/v1/${t}?id=eq.{id}`), roles(who.delete)],
    ...transitions.map((tr) => [
      `${tr.label} (transition)`,
      code(`POST /rest/v1/rpc/${tr.functionName}`),
      rolesWords(model, tr.roles),
    ]),
    ...(transitions.length > 0
      ? [['History', code(`GET /rest/v1/${history}?row_id=eq.{id}&order=at.asc`), roles(who.read)]]
      : []),
  ];
  const fields = Object.entries(e.fields);
  const member = (name: string, f: FieldSpec, optional: boolean, nullable = !f.required): Member => ({
    name: node.byField.get(name)?.column ?? columnName(name),
    type: fieldTypeText(model, entity, f, nullable),
    optional,
  });
  const creatable = createFields(model, entity).flatMap((name) => {
    const f = e.fields[name];
    return f ? [member(name, f, !f.required || f.default !== undefined)] : [];
  });
  const updatable = updateFields(model, entity).flatMap((name) => {
    const f = e.fields[name];
    return f ? [member(name, f, true)] : [];
  });
  // A payload is shown only for a call someone may make.
  const payloads = [
    ...(who.create.length > 0 ? [`// Create: POST /rest/v1/${t}`, membersText(creatable), ''] : []),
    ...(who.update.length > 0
      ? [
          `// Update: PATCH /rest/v1/${t}?id=eq.{id}&version=eq.{version} (send only what changes)`,
          membersText(updatable),
          '',
        ]
      : []),
    ...transitions.flatMap((tr, i) => [
      ...(i > 0 ? [''] : []),
      '',
      `// ${tr.label}: POST /rest/v1/rpc/${tr.functionName}`,
      transitionPayload(
        [...tr.input, ...tr.optionalInput].flatMap((i) => {
          const f = e.fields[i];
          const optional = tr.optionalInput.includes(i);
          return f ? [{ name: i, type: fieldTypeText(model, entity, f, false), optional }] : [];
        }),
      ),
    ]),
  ];
  return joinBlocks([
    `#### ${entityLabel(model, entity)} (table ${code(t)})`,
    e.profile && who.create.length === 0 && 'Rows are created when someone signs up, not by a call.',
    table(['Call', 'Request', 'Who may call'], rows),
    listFilters(node, fields),
    transitions.length > 0 &&
      `History: every transition appends one row to ${code(history)} — ${code('id')}, ${code('row_id')}, ` +
        `${code('kind')}, ${code('transition')}, ${code('from_state')}, ${code('to_state')}, ${code('actor')} (the user's id), ` +
        `${code('at')}, ${code('input')} (the transition's input, keyed by field name) and ${code('previous')}. ` +
        (Object.values(e.fields).some((f) => f.audited)
          ? `So does an edit of a field kept in history (${code('kind')} ${code('edit')}: ${code('input')} holds ` +
            `the fields' new values, ${code('previous')} their old ones). `
          : '') +
        'Whoever may read the row may read its history, old values included; nobody may change or delete it.',
    payloads.length > 0 && block('ts', payloads.join('\n').trimEnd()),
  ]);
}

/**
 * The transition functions take the row id, the version read (optional) and the input fields
 * as one JSON object keyed by field name: `(p_id, p_version, p_input)`, as `src/sql` declares them.
 */
function transitionPayload(input: readonly Member[]): string {
  const inputText = membersText(input).replace(/\n/g, '\n  ');
  return `{\n  p_id: uuid;\n  p_version?: integer;\n  p_input${input.length === 0 ? '?' : ''}: ${inputText};\n}`;
}

function listOrder(model: AppModel, entity: string): string {
  const screen = [...model.screens.values()].find(
    (s) => s.entity === entity && (s.kind === 'list' || s.kind === 'board') && s.spec.sort,
  )?.spec;
  if (!screen?.sort) return 'created_at.desc';
  const { field, descending } = parseSort(screen.sort);
  return `${model.tables.get(entity)?.byField.get(field)?.column ?? columnName(field)}.${descending ? 'desc' : 'asc'}`;
}

/** Rule kinds filtered by equality, and by a range. */
const EXACT = new Set<FieldRuleKind>(['status', 'enum', 'ref', 'user', 'boolean']);
const RANGE = new Set<FieldRuleKind>(['number', 'date', 'datetime']);

function listFilters(node: TableNode, fields: readonly [string, FieldSpec][]): string {
  const col = (name: string) => node.byField.get(name)?.column ?? columnName(name);
  const exact = fields
    .filter(([, f]) => EXACT.has(FIELD_TYPES[f.type].rule))
    .map(([n]) => code(`${col(n)}=eq.{value}`));
  const range = fields
    .filter(([, f]) => RANGE.has(FIELD_TYPES[f.type].rule))
    .flatMap(([n]) => [code(`${col(n)}=gte.{from}`), code(`${col(n)}=lte.{to}`)]);
  const tags = fields
    .filter(([, f]) => FIELD_TYPES[f.type].rule === 'tags')
    .map(([n]) => code(`${col(n)}=cs.{tag1,tag2}`));
  const searched = fields
    .filter(
      ([, f]) => f.search === true || ((f.type === 'text' || f.type === 'longtext') && f.search !== false),
    )
    .map(([n]) => `${col(n)}.ilike.*{q}*`);
  const items: string[] = [];
  if (exact.length > 0) items.push(`exact: ${exact.join(', ')} (or \`in.(a,b)\` for several values)`);
  if (range.length > 0) items.push(`ranges: ${range.join(', ')}`);
  if (tags.length > 0) items.push(`tags: ${tags.join(', ')}`);
  if (searched.length > 0) items.push(`search: ${code(`or=(${searched.join(',')})`)}`);
  if (items.length === 0) return 'The list takes no filters.';
  return `Filters for the list ({filters}: any combination, each optional):\n\n${bullets(items)}`;
}

function renderDeclared(model: AppModel, name: string, c: DeclaredCallSpec): string {
  // The transitions in the spec's `states` order.
  const after = [...model.machines].flatMap(([entity, m]) =>
    Object.entries(m.spec.transitions)
      .filter(([, t]) => t.calls?.includes(name))
      .map(([t]) => {
        const filled = payloadFillsOf(model.outbox, entity, name)
          .filter((f) => f.shape !== undefined)
          .map((f) => f.key);
        const rest = Object.keys(c.payload)
          .map((k) => k.replace(/\?$/, ''))
          .filter((k) => !filled.includes(k));
        const from =
          filled.length === 0
            ? `every key from its input ${code(`calls.${name}`)}`
            : rest.length === 0
              ? `the database fills every key: ${filled.map(code).join(', ')}`
              : `the database fills ${filled.map(code).join(', ')}; ${rest.map(code).join(', ')} from its input ${code(`calls.${name}`)}`;
        return `${entityLabel(model, entity)}: ${transitionLabel(model, entity, t)} (${from})`;
      }),
  );
  const params = routeParams(c.path);
  const facts = [
    `Service: ${code(c.service)}`,
    `Request: ${code(`${c.method} ${c.path}`)}`,
    ...(params.length > 0 ? [`Path parameters: ${params.map(code).join(', ')}`] : []),
    `Who may call: ${rolesWords(model, c.roles)}`,
    `When it fails: ${errorWords(model, c.error)}`,
    ...(after.length > 0 ? [`Queued when it commits: ${after.join(', ')}`] : []),
  ];
  return joinBlocks([
    `#### ${name}`,
    c.description.trim(),
    bullets(facts),
    block('ts', `// Payload\n${shapeText(c.payload)}\n\n// Response\n${shapeText(c.response)}${fillText(c)}`),
  ]);
}

/**
 * The call's `fill` as JSON after the shapes (`ninefold import` reads it back): each key's value
 * in the rule language or a {template} over the row its transition leaves, or `{ "rows": … }`.
 * JSON keeps a template's line breaks on one line of the document.
 */
function fillText(c: DeclaredCallSpec): string {
  if (!c.fill || Object.keys(c.fill).length === 0) return '';
  return `\n\n${FILL_MARKER} (over the row its transition leaves; a {placeholder} is a value in the rule language)\n${JSON.stringify(c.fill, null, 2)}`;
}
