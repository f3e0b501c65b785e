import type { AppModel } from '../model/appModel.ts';
import { entityLabel, fieldLabel, roleLabel } from './docLabels.ts';
import { ACTIONS, type Action, effectiveGrants, type Grant } from './effectivePermissions.ts';
import { bullets, code, joinBlocks, table } from './markdown.ts';
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
    '### Who may do what',
    'For each entity: what each role may read, create, update (and which fields) and delete. ' +
      'A role has its own permissions plus every permission of the roles it inherits from, directly or ' +
      'indirectly: the tables show these effective permissions, and "from …" marks one that is inherited. ' +
      'Anything not listed is refused by the database, whatever the screens show.',
    ...[...model.tables.keys()].map((entity) => renderMatrix(model, entity, notes)),
  ]);
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
      return `${i > 0 ? 'or ' : ''}${when}${fields}${fromWords(model, role, g)}`;
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

function fromWords(model: AppModel, role: string, g: Grant): string {
  return g.from === role ? '' : ` (from ${roleLabel(model, g.from)})`;
}
