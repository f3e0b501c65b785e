import type { RootContent } from 'mdast';
import type { AppSpec, EntityPermissions, Permission, RoleSpec, RoleThroughSpec } from '../spec/types.ts';
import { type CellLine, cellLines, lastCode, unmark } from './cellLines.ts';
import { flag, flagCell, type ImportContext, keyFromLabel, splitList } from './importContext.ts';
import { type Pos, posOf, readTable, tableHeaders, tablesIn, textOf } from './markdownTree.ts';
import { entityNames, fieldNames, roleNames } from './specNames.ts';

const ROLE_COLUMNS = {
  role: ['Role', 'Name', 'Key'],
  label: ['Label'],
  description: ['Description', 'Meaning'],
  inherits: ['Inherits from', 'Inherits'],
  signup: ['Given on sign-up', 'Sign-up', 'Signup', 'On sign-up'],
};

const ACTIONS = ['read', 'create', 'update', 'delete'];

const MATRIX_COLUMNS = {
  role: ['Role'],
  read: ['Read'],
  create: ['Create'],
  update: ['Update'],
  delete: ['Delete'],
};

/** Section 6, first part: the table of roles (read before anything that names a role). */
export function readRoleTable(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const table = tablesIn(body).find((t) => !tableHeaders(t).includes('read'));
  const inherits: { role: string; text: string; pos: Pos }[] = [];
  for (const row of table ? readTable(table, ctx.source, ROLE_COLUMNS, ctx) : []) {
    const keyCell = row.cell('role');
    const labelCell = row.cell('label');
    const key =
      keyCell.codes[0] ?? (keyCell.text ? keyFromLabel(keyCell.text) : keyFromLabel(labelCell.text));
    const path = `roles.roles.${key}`;
    ctx.at(path, row.pos);
    if (Object.hasOwn(spec.roles.roles, key)) {
      ctx.problem('doc/duplicate', row.pos, path, `the role "${key}" is listed twice`);
      continue;
    }
    const role: RoleSpec = { label: labelCell.raw || (keyCell.codes[0] ? key : keyCell.raw) };
    const description = row.cell('description').raw;
    if (description !== '') role.description = description;
    if (flagCell(ctx, row.cell('signup'), `roles.roles.${key}.signup`)) role.signup = true;
    spec.roles.roles[key] = role;
    const inh = row.cell('inherits');
    if (inh.text !== '' && flag(inh.text) !== false)
      inherits.push({ role: key, text: inh.text, pos: inh.pos });
  }
  readThroughTable(ctx, body, spec);
  for (const i of inherits) {
    const names = splitList(i.text).flatMap((t) => {
      const r = ctx.resolve(roleNames(spec), t, 'role', i.pos, `roles.roles.${i.role}.inherits`);
      return r ? [r] : [];
    });
    const role = spec.roles.roles[i.role];
    if (role && names.length > 0) role.inherits = names;
  }
}

const THROUGH_COLUMNS = { role: ['Role'], on: ['Held on'], through: ['Through'] };

/**
 * The roles held through a relationship (the table with a `Through` column, after the roles): the
 * formal form in its last code, `project.lead` or `membership(person, team, role in (member, owner))`.
 */
function readThroughTable(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const table = tablesIn(body).find((t) => tableHeaders(t).includes('through'));
  for (const row of table ? readTable(table, ctx.source, THROUGH_COLUMNS) : []) {
    const keyCell = row.cell('role');
    const key = keyCell.codes[0] ?? keyFromLabel(keyCell.text);
    const path = `roles.roles.${key}.through`;
    const role = Object.hasOwn(spec.roles.roles, key) ? spec.roles.roles[key] : undefined;
    if (!role) {
      ctx.problem('doc/unknown-name', keyCell.pos, path, `"${key}" is not in the table of roles above`);
      continue;
    }
    const cell = row.cell('through');
    ctx.at(path, cell.pos);
    const formal = cell.codes[cell.codes.length - 1] ?? '';
    const through = parseThrough(formal);
    if (!through) {
      ctx.problem(
        'doc/invalid-value',
        cell.pos,
        path,
        `cannot read how "${key}" is held from "${formal}"`,
        'write `entity.field` (a person field) or `membership(person, team, role in (member, owner))`',
      );
      continue;
    }
    role.through = through;
  }
}

/** `project.lead` or `membership(person, team[, role in (a, b)])`, as `renderRoles` writes them. */
function parseThrough(text: string): RoleThroughSpec | undefined {
  const field = /^\s*(\w+)\.(\w+)\s*$/.exec(text);
  if (field) return { entity: field[1] as string, field: field[2] as string };
  const m = /^\s*(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*(?:,\s*(\w+)\s+in\s*\(([^)]*)\))?\s*\)\s*$/.exec(text);
  if (!m) return undefined;
  const out: RoleThroughSpec = { entity: m[1] as string, user: m[2] as string, scope: m[3] as string };
  if (m[4] !== undefined && m[5] !== undefined) {
    out.role = m[4];
    out.values = m[5].split(',').map((v) => {
      const t = v.trim();
      return t.startsWith('"') ? (JSON.parse(t) as string) : t;
    });
  }
  return out;
}

/**
 * Section 6, second part: one matrix per entity (`#### Claim`), role by action. The document
 * shows effective permissions; a grant marked `(from …)` is inherited and is not the role's own.
 * Long rules stand in notes below the matrix (`when … (note 3)`).
 */
export function readPermissions(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const notes = readNotes(body);
  let entity: string | undefined;
  for (const node of body) {
    if (node.type === 'heading' && node.depth >= 3) {
      const text = textOf(node);
      const named = entityNames(spec).find(
        (e) =>
          e.key === text || e.label?.toLowerCase() === text.toLowerCase() || text.includes(`\`${e.key}\``),
      );
      entity = named?.key;
      continue;
    }
    // A matrix has at least one of the four action columns (one misspelt header must not hide it).
    if (node.type !== 'table' || !tableHeaders(node).some((h) => ACTIONS.includes(h))) continue;
    if (entity === undefined) {
      ctx.problem(
        'doc/missing',
        posOf(node),
        'roles.permissions',
        'a permissions table without an entity heading above it',
        'put `#### <entity label>` above the table',
      );
      continue;
    }
    for (const row of readTable(node, ctx.source, MATRIX_COLUMNS, ctx)) {
      const roleCell = row.cell('role');
      const role = ctx.resolve(
        roleNames(spec),
        roleCell.codes[0] ?? roleCell.text,
        'role',
        roleCell.pos,
        'roles.permissions',
      );
      if (!role) continue;
      const path = `roles.permissions.${role}.${entity}`;
      ctx.at(`roles.permissions.${role}`, row.pos);
      ctx.at(path, row.pos);
      const perms: EntityPermissions = {};
      for (const action of ['read', 'create', 'delete'] as const) {
        const cell = row.cell(action);
        ctx.at(`${path}.${action}`, cell.pos);
        const { lines, becomes } = readBecomes(ctx, cellLines(cell.node), cell.pos, `${path}.${action}`);
        const grant = ownGrant(ctx, lines, notes, cell.pos, `${path}.${action}`);
        if (becomes.becomes !== undefined && action !== 'create')
          ctx.problem(
            'doc/invalid-value',
            cell.pos,
            `${path}.${action}.becomes`,
            `a ${action} makes no row: "only if it becomes" belongs in the Create or Update column`,
            'move the words to the Create or Update cell, or remove them',
          );
        if (!grant || grant.when === false) continue;
        if (action !== 'create') perms[action] = grant.when;
        else
          perms.create =
            becomes.becomes === undefined
              ? grant.when
              : {
                  when: grant.when,
                  becomes: becomes.becomes,
                  ...(becomes.error !== undefined ? { error: becomes.error } : {}),
                };
      }
      const cell = row.cell('update');
      ctx.at(`${path}.update`, cell.pos);
      const { lines, becomes } = readBecomes(ctx, cellLines(cell.node), cell.pos, `${path}.update`);
      const grant = ownGrant(ctx, lines, notes, cell.pos, `${path}.update`);
      if (grant && grant.when !== false) {
        const fields = splitList(grant.fields).flatMap((t) => {
          const f = ctx.resolve(
            fieldNames(spec, entity, false),
            t,
            'field',
            cell.pos,
            `${path}.update.fields`,
          );
          return f ? [f] : [];
        });
        perms.update = { when: grant.when, fields, ...becomes };
      }
      if (Object.keys(perms).length > 0) {
        const byRole = spec.roles.permissions[role] ?? {};
        byRole[entity] = perms;
        spec.roles.permissions[role] = byRole;
      }
    }
  }
}

const BECOMES =
  /;\s*only if it becomes\s+\uE000(\d+)\uE000(?:\s*\(\uE000(\d+)\uE000\))?\s*(?=\(from [^)\uE000]*\)\s*$|$)/i;

/**
 * A cell's `; only if it becomes `rule` (`CODE`)` (an update's or a create's) taken off each line (before an inherited
 * line's `(from …)`), and the own line's (the first not inherited) as `becomes`/`error`. A line
 * that speaks of "becomes" in another form is an error, never dropped.
 */
function readBecomes(
  ctx: ImportContext,
  lines: readonly CellLine[],
  pos: Pos,
  path: string,
): { lines: CellLine[]; becomes: { becomes?: string; error?: string } } {
  let becomes: { becomes?: string; error?: string } | undefined;
  const out = lines.map((line) => {
    const inherited = /\(from [^)\uE000]*\)\s*$/i.test(line.marked);
    const m = BECOMES.exec(line.marked);
    if (!m) {
      if (/only if it becomes/i.test(line.marked))
        ctx.problem(
          'doc/invalid-value',
          pos,
          `${path}.becomes`,
          `cannot read "${unmark(line)}": the rule after "only if it becomes" goes in backticks, the error code after it in backticks in parentheses`,
          'write `…: Role; only if it becomes `role != owner` (`ONLY_OWNER_MAKES_OWNER`)`',
        );
      if (!inherited) becomes ??= {};
      return line;
    }
    if (!inherited && becomes === undefined) {
      const rule = line.codes[Number(m[1])] ?? '';
      const error = m[2] !== undefined ? line.codes[Number(m[2])] : undefined;
      becomes = { becomes: rule, ...(error !== undefined ? { error } : {}) };
    }
    return {
      ...line,
      marked: `${line.marked.slice(0, m.index)} ${line.marked.slice(m.index + m[0].length)}`.trim(),
    };
  });
  return { lines: out, becomes: becomes ?? {} };
}

/** `Note 3: when … (`rule`).` lines under the matrices. */
function readNotes(body: readonly RootContent[]): Map<number, string> {
  const notes = new Map<number, string>();
  for (const node of body) {
    if (node.type !== 'list') continue;
    for (const item of node.children) {
      const para = item.children[0];
      if (para?.type !== 'paragraph') continue;
      const [line] = cellLines({ type: 'tableCell', children: para.children });
      if (!line) continue;
      const m = /^note\s+(\d+)\s*:/i.exec(line.marked);
      if (!m) continue;
      const last = lastCode(line.marked);
      const rule = last
        ? line.codes[last.index]
        : unmark(line, line.marked.slice(m[0].length))
            .replace(/^when\s+/i, '')
            .replace(/\.$/, '');
      if (rule) notes.set(Number(m[1]), rule);
    }
  }
  return notes;
}

/** The role's own grant in a cell (lines ending in `(from …)` are inherited), or undefined for never. */
function ownGrant(
  ctx: ImportContext,
  lines: readonly CellLine[],
  notes: Map<number, string>,
  pos: Pos,
  path: string,
): { when: Permission; fields: string } | undefined {
  for (const line of lines) {
    let marked = line.marked.replace(/^or\s+/i, '').trim();
    const from = /\(from [^)\uE000]*\)\s*$/i.exec(marked);
    if (from) continue;
    const first = marked.split(/[\s:;,(]/)[0]?.toLowerCase() ?? '';
    const yes = flag(first);
    const rest = marked.slice(first.length).trim();
    const unreadable = (what: string) =>
      ctx.problem(
        'doc/invalid-value',
        pos,
        path,
        `cannot read "${unmark(line, what)}" in the permission "${unmark(line, marked)}"`,
        'write `always`, `never`, or `when <rule in backticks>` (update: followed by `: <fields>`); an inherited grant ends in `(from <role>)`',
      );
    if (
      yes !== undefined &&
      !marked.toLowerCase().startsWith('when') &&
      rest !== '' &&
      !rest.startsWith(':')
    ) {
      // `always (form Member)`: neither this role's grant nor an inherited one that can be told apart.
      unreadable(rest);
      return undefined;
    }
    if (yes === false && !marked.toLowerCase().startsWith('when')) return undefined;
    if (yes === true && !marked.toLowerCase().startsWith('when')) {
      return { when: true, fields: rest.replace(/^:/, '').trim() };
    }
    if (!marked.toLowerCase().startsWith('when')) {
      ctx.problem(
        'doc/invalid-value',
        pos,
        path,
        `cannot read the permission "${unmark(line, marked)}"`,
        'write `always`, `never`, or `when <rule in backticks>` (update: followed by `: <fields>`)',
      );
      return undefined;
    }
    marked = marked.slice(4).trim();
    const note = /\(note\s+(\d+)\)/i.exec(marked);
    if (note) {
      const rule = notes.get(Number(note[1]));
      if (rule === undefined) {
        ctx.problem(
          'doc/missing',
          pos,
          path,
          `note ${note[1]} is not written under the table`,
          `add "- Note ${note[1]}: when … (\`rule\`)."`,
        );
        return undefined;
      }
      return { when: rule, fields: unmark(line, fieldsAfter(marked.slice(note.index + note[0].length))) };
    }
    const last = lastCode(marked);
    if (last) {
      const after = marked.slice(last.end).replace(/^\)/, '').trim();
      if (after !== '' && !after.startsWith(':')) unreadable(after);
      return {
        when: line.codes[last.index] ?? '',
        fields: unmark(line, fieldsAfter(marked.slice(last.end).replace(/^\)/, ''))),
      };
    }
    // A bare rule without backticks: everything up to the field list.
    const colon = marked.indexOf(':');
    const rule = unmark(line, colon >= 0 ? marked.slice(0, colon) : marked);
    return { when: rule, fields: colon >= 0 ? unmark(line, marked.slice(colon + 1)) : '' };
  }
  return undefined;
}

function fieldsAfter(text: string): string {
  const t = text.trim();
  return t.startsWith(':') ? t.slice(1).trim() : '';
}
