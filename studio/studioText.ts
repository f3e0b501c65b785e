import { LOCALE_STORAGE_KEY, LOCALES, type Locale, pickLocale } from '../src/runtime/locale.ts';
import { fillTemplate } from '../src/runtime/uiText.ts';
import { STUDIO_TEXT_DE } from './studioText.de.ts';

/**
 * Every text of the studio's own page, as the generated app keeps its own (docs/i18n.md): this is
 * the English catalogue, the source of the keys; `studioText.de.ts` is typed as a full record of
 * them, so a missing German text fails the type check. Both are small, so both ship in the page.
 */
export const STUDIO_TEXT = {
  title: 'Ninefold Studio',
  save: 'Save',
  language: 'Language',
  outline: 'Outline',
  outlineLabel: 'Sections of the document',
  editorLabel: 'The nine-point document',
  sideLabel: 'The app built from the document',
  views: 'Views',
  tabProblems: 'Problems',
  tabLive: 'Live app',
  tabPermissions: 'Permissions',
  tabStates: 'States',
  tabSql: 'SQL',
  tabChange: 'Change',
  tabTypes: 'Types',
  tabOpenApi: 'OpenAPI',
  tabDoc: 'Document',
  signedInAs: 'Signed in as',
  nobody: 'nobody (signed out)',
  resetData: 'Start with new data',
  liveTitle: 'Live app',
  keptInBrowser: '{name} (kept in this browser)',
  savedInBrowser: 'Saved in this browser',
  savedFile: 'Saved {file}',
  notSaved: 'Not saved: {error}',
  noErrors: 'No errors',
  oneError: '1 error',
  errors: '{count} errors',
  unsaved: ' · unsaved changes',
  outlineErrors: ' ({count} errors)',
  outlineError: ' (1 error)',
  noProblems: 'No problems: the document is a valid app.',
  error: 'Error',
  warning: 'Warning',
  lineColumn: 'line {line}, column {column}',
  signedInStatus: 'Signed in as {name}',
  signedOutStatus: 'Signed out',
  liveNotChanged: 'The live app was not changed: {message}',
  liveKeeps: 'The live app keeps the previous version: this change would lose or break rows.',
  // permission matrix
  matrixCaption: 'Who may do what: role × entity × operation, with the rule that decides each cell',
  role: 'Role',
  entity: 'Entity',
  read: 'Read',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  always: 'always',
  never: 'never',
  inheritedFrom: ' (from {roles})',
  // state diagram
  stateDiagramOf: 'States of {entity}',
  stateDiagramSummary:
    'States of {entity}: {states}. A new row starts in {initial}. {count} transitions, listed in the table below.',
  noStates: 'No entity of this document has states.',
  transitionsOf: 'Transitions of {entity}',
  from: 'From',
  transition: 'Transition',
  to: 'To',
  roles: 'Roles',
  initialState: 'start',
  finalState: 'final',
  // change since the last save
  changeNone: 'No change since the last save.',
  changeIntro: 'Since the last save, the planner of `ninefold migrate` would apply:',
  changeRefused: 'The planner refuses this change:',
  changeSqlLabel: 'The migration',
  savedHasErrors: 'The saved document has errors, so there is nothing to compare with.',
  viewsWaiting: 'Shown when the document has no errors.',
  // share, export, import
  exportDoc: 'Export',
  importDoc: 'Import',
  share: 'Share link',
  shareLabel: 'Link that opens this document',
  shareCopied: 'Link copied: it carries the whole document.',
  shareReady: 'The link below carries the whole document.',
  shareTooLong: 'The document is too large for a link ({size} characters); export it as a file.',
  exported: 'Exported {file}',
  imported: 'Imported {file}: press Save to keep it.',
  importTooLarge: 'Not imported: {file} is larger than {max} characters.',
  importNotText: 'Not imported: {file} is not a text file.',
  linkLoaded: 'Opened the document from the link: press Save to keep it.',
  linkCorrupt: 'The link is damaged: its document could not be read. Your stored document is unchanged.',
  linkTooLarge: 'The link is too large to open. Your stored document is unchanged.',
  linkVersion: 'The link was made by another version of the studio. Your stored document is unchanged.',
} as const;

export type StudioTextKey = keyof typeof STUDIO_TEXT;
export type StudioCatalogue = Readonly<Record<StudioTextKey, string>>;

export const STUDIO_CATALOGUES: Readonly<Record<Locale, StudioCatalogue>> = {
  en: STUDIO_TEXT,
  de: STUDIO_TEXT_DE,
};

/** The studio's language, kept where the generated app keeps its own: the live app follows it. */
export const STUDIO_LOCALE_KEY = LOCALE_STORAGE_KEY;

let current: Locale = 'en';

/** Sets the language the studio speaks (the page re-renders its texts after). */
export function setStudioLocale(locale: Locale): void {
  current = locale;
}

export function studioLocale(): Locale {
  return current;
}

/** The saved choice, else the browser's first shipped language, else English (as the app does). */
export function initialStudioLocale(saved: string | null, languages: readonly string[]): Locale {
  return pickLocale(saved, languages);
}

/**
 * One studio text in the language in use, its placeholders filled.
 *
 * @example
 * st('errors', { count: 3 }); // '3 errors' ('3 Fehler' in German)
 */
export function st(key: StudioTextKey, params: Readonly<Record<string, unknown>> = {}): string {
  return fillTemplate(STUDIO_CATALOGUES[current][key], params);
}

export { LOCALES };
