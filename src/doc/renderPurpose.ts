import type { AppModel } from '../model/appModel.ts';
import { bullets, joinBlocks } from './markdown.ts';

/**
 * Section 1: what the app is for and who uses it. The app's name is the document's title,
 * so this section is the summary and the list of users.
 *
 * @example
 * renderPurpose(model); // '## 1. Purpose\n\nLets a team ...\n\n**Who uses it**\n\n- Employees ...'
 */
export function renderPurpose(model: AppModel): string {
  const { summary, users } = model.purpose;
  return joinBlocks([
    '## 1. Purpose',
    summary.trim(),
    users.length > 0 && '**Who uses it**',
    users.length > 0 && bullets(users.map((u) => u.trim())),
  ]);
}
