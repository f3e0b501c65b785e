/**
 * Names the specification may not give to its own things, because the rule language and the
 * tables already use them. Spelled here, in the specification layer, so that the name checks
 * (specNames.ts) and the rule language (src/rules/lex.ts, fieldType.ts) read one list each.
 */

/** Words with a fixed meaning; they can never name a field, constant or role. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'not',
  'in',
  'is',
  'empty',
  'contains',
  'true',
  'false',
  'null',
  'me',
  'now',
  'today',
  'this',
  'where',
]);

/** Columns every table has besides its declared fields (see `RowOf` in defineApp.ts). */
export const IMPLICIT_FIELDS = ['id', 'createdAt', 'updatedAt', 'version'] as const;
