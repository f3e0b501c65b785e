import type { AppModel } from '../model/appModel.ts';
import type { EntitySpec } from '../spec/types.ts';
import { fieldLabel } from './docLabels.ts';
import { defaultWords, fieldTypeWords } from './fieldTypeWords.ts';
import * as plain from './labels.ts';
import { code, joinBlocks, mdText, table } from './markdown.ts';

/**
 * Section 3: one table per entity with every field (label, type, required, default, unique,
 * owner, help). The four columns every table has are explained once, not repeated.
 *
 * @example
 * renderEntities(model); // '## 3. Entities and fields\n\n...\n\n### Device ...'
 */
export function renderEntities(model: AppModel): string {
  const entities = [...model.tables].map(([name, t]) => [name, t.spec] as const);
  return joinBlocks([
    '## 3. Entities and fields',
    'Every entity also has four columns the system keeps, not repeated below: **id** (a unique identifier), ' +
      '**created at** and **updated at** (when the row was created and last changed) and **version** ' +
      '(a counter raised on every change, so two people editing the same row cannot overwrite each other unknowingly).',
    ...entities.map(([name, e]) => renderEntity(model, name, e)),
  ]);
}

function renderEntity(model: AppModel, name: string, e: EntitySpec): string {
  const notes: string[] = [`Stored in table ${code(model.tables.get(name)?.table ?? name)}.`];
  if (e.plural) notes.push(`Plural: ${mdText(e.plural)}.`);
  if (e.title) notes.push(`A row is shown by its ${fieldLabel(model, name, e.title)}.`);
  if (e.profile) notes.push("Its rows are the app's users: a row's id is the signed-in person's id.");
  if (e.files) notes.push('Its rows are files: name, size, type and content are kept with each row.');
  if (e.live) notes.push('Changes appear live for everyone looking at them.');
  for (const key of e.unique ?? []) {
    const names = key.fields.map((f) => fieldLabel(model, name, f)).join(', ');
    const ignoring = key.ignoreCase ? ', ignoring case' : '';
    notes.push(`No two rows have the same ${names} together${ignoring} (error ${code(key.error)}).`);
  }
  const fields = Object.entries(e.fields);
  // Only entities with audited fields get the column, so the other tables stay as narrow as before.
  const audited = fields.some(([, f]) => f.audited);
  const rows = fields.map(([f, spec_]) => [
    code(f),
    // The Label column defines the label: printed as written, read back raw.
    plain.fieldLabel(model, name, f),
    // A computed field says so after its type: the server sets it from the rule on every write;
    // a field not everyone who reads the row may read says who may.
    [
      fieldTypeWords(model, name, spec_),
      ...(spec_.computed === undefined ? [] : [`computed as ${code(spec_.computed)}`]),
      ...(spec_.read === undefined ? [] : [`read only when ${code(spec_.read)}`]),
    ].join('; '),
    spec_.required ? 'yes' : '',
    defaultWords(spec_.default),
    spec_.unique === 'ignoreCase' ? 'yes, ignoring case' : spec_.unique ? 'yes' : '',
    spec_.owner ? 'yes: the creating user, never changes' : '',
    spec_.help ?? '',
    flagWords(spec_.list),
    flagWords(spec_.search),
    ...(audited ? [spec_.audited ? 'yes' : ''] : []),
  ]);
  return joinBlocks([
    `### ${mdText(e.label)} (${code(name)})`,
    notes.join(' '),
    fields.length === 0
      ? 'No fields of its own.'
      : table(
          [
            'Field',
            'Label',
            'Type',
            'Required',
            'Default',
            'Unique',
            'Owner',
            'Help',
            'In lists',
            'Searched',
            ...(audited ? ['In history'] : []),
          ],
          rows,
        ),
  ]);
}

/**
 * `list` and `search` have defaults the runtime applies (search: text fields yes), so the
 * document prints only what the specification says — `yes`, `no` or nothing — and `ninefold
 * import` reads it back exactly.
 */
function flagWords(flag: boolean | undefined): string {
  return flag === undefined ? '' : flag ? 'yes' : 'no';
}
