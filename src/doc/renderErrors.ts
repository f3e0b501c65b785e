import type { AppModel } from '../model/appModel.ts';
import { SQL_RAISED_BUILTIN_CODES } from '../model/builtinCodes.ts';
import type { ErrorParamNode } from '../model/errorParams.ts';
import { errorParamText } from '../spec/errorParams.ts';
import { fieldPathLabel } from './docLabels.ts';
import { code, joinBlocks, table } from './markdown.ts';

/**
 * Section 8: the error catalogue. Codes are stable; `{placeholders}` in a message are filled
 * from the constants of section 9 or the row's data when the message is shown.
 *
 * @example
 * renderErrors(model); // '## 8. Error catalogue\n\n...| `LOAN_TOO_LONG` | Loans last at most ...'
 */
export function renderErrors(model: AppModel): string {
  // The catalogue as written: the codes with a message, the spec's own and the built-ins it words.
  const written = [...model.errors.values()].filter((e) => e.message !== undefined);
  // The Parameters column only when some message declares parameters (older documents stay as they were).
  const withParams = written.some((e) => (e.params?.length ?? 0) > 0);
  const rows = written.map((e) => [
    code(e.code),
    e.message ?? '',
    e.severity,
    e.field ? fieldPathLabel(model, e.field) : '',
    ...(withParams ? [paramsCell(e.params ?? [])] : []),
  ]);
  const builtins = SQL_RAISED_BUILTIN_CODES.filter((c) => model.errors.get(c)?.message === undefined).map(
    (c) => [code(c), BUILTIN_MEANING[c] ?? ''],
  );
  return joinBlocks([
    '## 8. Error catalogue',
    rows.length === 0
      ? 'The catalogue is empty.'
      : 'Every error the app can show. Codes are stable (the database raises them, the app shows the message); ' +
        '{placeholders} are filled from the constants of section 9 or from the data. ' +
        'An error with a field is shown next to that field in forms.',
    withParams &&
      'Parameters come with the error from the server: `name = field` (of the row written), ' +
        '`name = other.field` (of the row that made the rule fail), `name = sum` or `name = count` ' +
        '(of the rule, over the rows the user may read).',
    table(['Code', 'Message', 'Severity', 'Field', ...(withParams ? ['Parameters'] : [])], rows),
    builtins.length > 0 && '### Built-in errors',
    builtins.length > 0 &&
      'The backend raises these by itself, whatever the app. The app shows a standard message for each ' +
        'unless the catalogue above gives one.',
    table(['Code', 'When'], builtins),
  ]);
}

/** What each error the generated database raises by itself means, for readers of the document. */
const BUILTIN_MEANING: Record<string, string> = {
  NOT_FOUND: 'The row does not exist, or the user may not see it (the two look the same on purpose).',
  CONFLICT: 'Someone else changed the row since the user read it; nothing was saved.',
  FORBIDDEN: 'The user’s roles do not allow this (or a guard without its own error failed).',
  INVALID_TRANSITION: 'The transition does not start from the row’s current state.',
  INPUT_REQUIRED: 'A transition was run without one of the fields it asks for.',
  FIELD_NOT_WRITABLE: 'The user tried to change a field their roles may not change.',
  APPEND_ONLY: 'History cannot be changed or removed.',
  BATCH_TOO_LARGE: 'One request touches rows of too many groups (tickets, claims, …) at once; split it.',
};

/** `` `logged = sum`, `day = date` ``: a message's declared parameters, as `import` reads them back. */
function paramsCell(params: readonly ErrorParamNode[]): string {
  return params.map((p) => code(`${p.name} = ${errorParamText(p.source)}`)).join(', ');
}
