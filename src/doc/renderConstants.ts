import type { AppModel } from '../model/appModel.ts';
import { constantValueCell } from './constantValueCell.ts';
import { constantValueWords } from './constantValueWords.ts';
import { code, joinBlocks, table } from './markdown.ts';

/** The unit cell of the app's time zone constant (what `import` reads it by). */
export const TIME_ZONE_UNIT = 'time zone';

/**
 * Section 9: the business constants and limits every other section refers to by name.
 *
 * @example
 * renderConstants(model); // '## 9. Constants and limits\n\n| Name | Label | Value | Unit |...'
 */
export function renderConstants(model: AppModel): string {
  const rows = [...model.constants].map(([name, c]) => [
    code(name),
    c.label,
    c.type === undefined
      ? constantValueCell(c.value)
      : c.type === 'timezone'
        ? code(String(c.value))
        : `${constantValueWords(c.value, c.type)} (${code(String(c.value))})`,
    // The app's time zone says so in its unit: its value alone reads as a list of one code.
    c.type === 'timezone' ? TIME_ZONE_UNIT : (c.unit ?? c.type ?? ''),
  ]);
  return joinBlocks([
    '## 9. Constants and limits',
    rows.length === 0
      ? 'The app declares no constants.'
      : 'Rules, messages and limits refer to these by name, so changing a value here changes it everywhere.',
    table(['Name', 'Label', 'Value', 'Unit'], rows),
  ]);
}
