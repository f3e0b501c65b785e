import { snakeCase } from '../naming.ts';

/** Where the Supabase CLI looks for migrations, relative to the project root. */
export const SUPABASE_MIGRATIONS_DIR = 'supabase/migrations';

/**
 * An app name as a file-name word: ASCII letters, digits and `_` (accents dropped, anything else
 * becomes `_`); `app` when nothing is left.
 *
 * @example
 * appFileWord('Mini desk');    // 'mini_desk'
 * appFileWord('Café Expenses'); // 'cafe_expenses'
 */
export function appFileWord(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const word = snakeCase(ascii.replace(/[^A-Za-z0-9]+/g, ' ').trim())
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return word === '' ? 'app' : word;
}

/**
 * The name the Supabase CLI expects for the generated migration: `<UTC yyyymmddhhmmss>_ninefold_<app>.sql`
 * (it applies migrations in the order of that timestamp).
 *
 * @example
 * migrationFileName('Helpdesk', new Date('2026-03-01T12:00:05Z')); // '20260301120005_ninefold_helpdesk.sql'
 */
export function migrationFileName(appName: string, now: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${p(now.getUTCFullYear(), 4)}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `${stamp}_ninefold_${appFileWord(appName)}.sql`;
}

/**
 * The default output of `ninefold sql --target supabase`: `supabase/migrations/<file name>`.
 *
 * @example
 * defaultMigrationPath('Helpdesk', new Date('2026-03-01T12:00:05Z'));
 * // 'supabase/migrations/20260301120005_ninefold_helpdesk.sql'
 */
export function defaultMigrationPath(appName: string, now: Date): string {
  return `${SUPABASE_MIGRATIONS_DIR}/${migrationFileName(appName, now)}`;
}
