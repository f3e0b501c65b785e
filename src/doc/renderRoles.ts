import type { AppModel } from '../model/appModel.ts';
import { entityLabel, fieldLabel, roleLabel } from './docLabels.ts';
import { ACTIONS, type Action, effectiveGrants, type Grant } from './effectivePermissions.ts';
import { andList, bullets, code, joinBlocks, table } from './markdown.ts';
import { ruleText } from './ruleText.ts';

/** Rules longer than this (in words plus formal text) move out of the matrix into a note. */
const MAX_CELL_RULE = 100;

/** Long rules get a number once per section; the note is printed under the first table using it. */
interface Notes {
  next: number;
  byRule: Map<string, number>;
}

/**
 * Section 6: the roles (labels, descriptions, inheritance) and, per entity, a matrix of what
 * each role may read, create, update (which fields) and delete, with inheritance resolved.
 *
 * @example
 * renderRoles(model); // '## 6. Roles and permissions\n\n| Role | Label | ...'
 */
export function renderRoles(model: AppModel): string {
  const roles = [...model.roles];
  const roleRows = roles.map(([name, r]) => [
    code(name),
    r.label,
    r.description ?? '',
    r.inherits.map((i) => roleLabel(model, i)).join(', '),
    r.signup ? 'yes' : '',
  ]);
  const notes: Notes = { next: 1, byRule: new Map() };
  return joinBlocks([
    '## 6. Roles and permissions',
    roleRows.length === 0
      ? 'The app declares no roles.'
      : table(['Role', 'Label', 'Description', 'Inherits from', 'Given on sign-up'], roleRows),
    renderThrough(model),
    '### Who may do what',
    'For each entity: what each role may read, create, update (and which fields) and delete. ' +
      'A role has its own permissions plus every permission of the roles it inherits from, directly or ' +
      'indirectly: the tables show these effective permissions, and "from …" marks one that is inherited. ' +
      'Anything not listed is refused by the database, whatever the screens show.',
    ...[...model.tables.keys()].map((entity) => renderMatrix(model, entity, notes)),
  ]);
}

/**
 * The roles held through a relationship, when there are any: on which entity's rows, and how, in
 * words and in a formal form `ninefold import` reads back (`project.lead`,
 * `membership(person, team, role in (member, owner))`).
 */
function renderThrough(model: AppModel): string | false {
  const rows = [...model.roles].flatMap(([name, r]) => {
    const t = r.through;
    if (!t) return [];
    if (t.kind === 'field')
      return [
        [
          code(name),
          entityLabel(model, t.scope),
          `the person in ${fieldLabel(model, t.scope, t.field)}: ${code(`${t.scope}.${t.field}`)}`,
        ],
      ];
    const values = t.role !== undefined && t.values !== undefined ? t.values : undefined;
    const words = `a ${entityLabel(model, t.entity)} naming them (${fieldLabel(model, t.entity, t.user)}) and the ${entityLabel(model, t.scope).toLowerCase()} (${fieldLabel(model, t.entity, t.scopeField)})${values ? `, ${fieldLabel(model, t.entity, t.role as string)} ${andList([...values], 'or')}` : ''}`;
    const formal = `${t.entity}(${t.user}, ${t.scopeField}${values ? `, ${t.role} in (${values.map(valueWord).join(', ')})` : ''})`;
    return [[code(name), entityLabel(model, t.scope), `${words}: ${code(formal)}`]];
  });
  if (rows.length === 0) return false;
  return joinBlocks([
    'A role held through a relationship is nobody’s everywhere: a person holds it on one row of the entity it is held on, ' +
      'and on the rows under that row (rows with a reference to it), when the relationship names them. ' +
      'Its permissions below apply to those rows only.',
    table(['Role', 'Held on', 'Through'], rows),
  ]);
}

/** An enum value in the formal form: bare when it is a name, quoted otherwise. */
function valueWord(v: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? v : JSON.stringify(v);
}

function renderMatrix(model: AppModel, entity: string, notes: Notes): string {
  const noteLines: string[] = [];
  const rows = [...model.roles.keys()].map((role) => [
    roleLabel(model, role),
    ...ACTIONS.map((action) => cellWords(model, role, entity, action, noteLines, notes)),
  ]);
  return joinBlocks([
    `#### ${entityLabel(model, entity)}`,
    table(['Role', 'Read', 'Create', 'Update', 'Delete'], rows),
    noteLines.length > 0 && bullets(noteLines),
  ]);
}

function cellWords(
  model: AppModel,
  role: string,
  entity: string,
  action: Action,
  noteLines: string[],
  notes: Notes,
): string {
  const grants = effectiveGrants(model, role, entity, action);
  if (grants.length === 0) return 'never';
  return grants
    .map((g, i) => {
      const when =
        g.when === true ? 'always' : `when ${conditionWords(model, entity, g.when, noteLines, notes)}`;
      const fields = g.fields ? `: ${g.fields.map((f) => fieldLabel(model, entity, f)).join(', ')}` : '';
      return `${i > 0 ? 'or ' : ''}${when}${fields}${becomesWords(g)}${fromWords(model, role, g)}`;
    })
    .join('\n');
}

function conditionWords(
  model: AppModel,
  entity: string,
  rule: string,
  noteLines: string[],
  notes: Notes,
): string {
  const words = ruleText(rule, model, entity);
  if (words.length <= MAX_CELL_RULE) return words;
  let n = notes.byRule.get(`${entity}:${rule}`);
  if (n === undefined) {
    n = notes.next++;
    notes.byRule.set(`${entity}:${rule}`, n);
    noteLines.push(`Note ${n}: when ${words}.`);
  }
  return `… (note ${n})`;
}

/** An update's or create's `becomes`: `; only if it becomes `rule` (`CODE`)`, the code when declared. */
function becomesWords(g: Grant): string {
  if (g.becomes === undefined) return '';
  return `; only if it becomes ${code(g.becomes)}${g.error !== undefined ? ` (${code(g.error)})` : ''}`;
}

function fromWords(model: AppModel, role: string, g: Grant): string {
  return g.from === role ? '' : ` (from ${roleLabel(model, g.from)})`;
}
