import type { AppModel } from '../model/appModel.ts';
import type { FieldRuleSpec, ValidationRuleSpec } from '../spec/types.ts';
import { constantValueWords } from './constantValueWords.ts';
import { entityLabel, fieldLabel } from './docLabels.ts';
import { code, joinBlocks, table } from './markdown.ts';
import { ruleText } from './ruleText.ts';

/**
 * Section 5: every validation rule in words, with the error it raises. Field rules become
 * sentences ("Reason must be at least {minReasonLength} (10) and at most ... characters");
 * row rules are described and shown formally.
 *
 * @example
 * renderValidation(model); // '## 5. Validation rules\n\n### Loan\n\n| Rule | Error |...'
 */
export function renderValidation(model: AppModel): string {
  // The rules as written (bounds by constant name, formats), in the section's order.
  const entries = [...model.validation].map(([entity, rules]) => [entity, rules.map((r) => r.spec)] as const);
  return joinBlocks([
    '## 5. Validation rules',
    entries.length === 0
      ? 'No validation rules beyond the required fields and types of section 3.'
      : 'Besides required fields and types (section 3), these rules hold. The form checks them before saving and ' +
        'the database enforces them, so no route around the form can break them. A constant is shown as ' +
        '{name} with its current value.',
    ...entries.map(([entity, rules]) =>
      joinBlocks([
        `### ${entityLabel(model, entity)}`,
        table(
          ['Rule', 'Error'],
          rules.map((r) => [ruleSentence(model, entity, r), errorWords(model, r.error)]),
        ),
      ]),
    ),
  ]);
}

/** `CODE: message`, or just the code when the catalogue lacks it. */
export function errorWords(model: AppModel, codeName: string): string {
  const message = model.errors.get(codeName)?.message;
  return message !== undefined ? `${code(codeName)}: ${message}` : `${code(codeName)} (not in the catalogue)`;
}

/** The sentence of `onChange` (src/import/readValidation.ts reads it back). */
export const ON_CHANGE_WORDS =
  'Checked when the row is created and when that field changes, not on other edits.';

function ruleSentence(model: AppModel, entity: string, r: ValidationRuleSpec): string {
  if (r.kind === 'field') return fieldRuleSentence(model, entity, r);
  const parts = [`Must hold: ${ruleText(r.rule, model, entity)}.`];
  if (r.when) parts.push(`Checked only when ${ruleText(r.when, model, entity)}.`);
  if (r.field) parts.push(`Shown on ${fieldLabel(model, entity, r.field)}.`);
  // After "Shown on", which names the field: the import reads the field from there.
  if (r.onChange) parts.push(ON_CHANGE_WORDS);
  return parts.join(' ');
}

/**
 * @example
 * fieldRuleSentence(model, 'loan', { kind: 'field', field: 'reason', minLength: 10, maxLength: 'maxReasonLength', error: 'E' });
 * // 'Reason must be at least 10 and at most {maxReasonLength} (500) characters long.'
 */
export function fieldRuleSentence(model: AppModel, entity: string, r: FieldRuleSpec): string {
  const label = fieldLabel(model, entity, r.field);
  const clauses: string[] = [];
  const length = bounds(model, r.minLength, r.maxLength, false);
  if (length) clauses.push(`be ${length} characters long`);
  const range = bounds(model, r.min, r.max, true);
  if (range) clauses.push(`be ${range}`);
  if (r.pattern !== undefined) clauses.push(`match the pattern ${code(r.pattern)}`);
  if (r.format) clauses.push(`be ${FORMAT_WORDS[r.format]}`);
  if (clauses.length === 0) return `${label} has a rule with no constraint.`;
  return `${label} must ${clauses.join(', and ')}.`;
}

const FORMAT_WORDS: Record<NonNullable<FieldRuleSpec['format']>, string> = {
  email: 'a valid email address',
  url: 'a valid web address (URL)',
  phone: 'a valid phone number',
  currency: 'a three-letter currency code (ISO 4217)',
};

function bounds(
  model: AppModel,
  min: number | string | undefined,
  max: number | string | undefined,
  withUnit: boolean,
): string | undefined {
  const v = (x: number | string) => boundWords(model, x, withUnit);
  if (min !== undefined && max !== undefined) return `at least ${v(min)} and at most ${v(max)}`;
  if (min !== undefined) return `at least ${v(min)}`;
  if (max !== undefined) return `at most ${v(max)}`;
  return undefined;
}

/** A literal bound as written; a constant as `{name} (value unit)`, as in error templates. */
function boundWords(model: AppModel, x: number | string, withUnit: boolean): string {
  if (typeof x === 'number') return String(x);
  const c = model.constants.get(x);
  if (!c) return `{${x}} (unknown constant)`;
  // `currency`: an amount in the currency of whatever it bounds (a rate's, a claim's).
  const unitWords = c.unit === 'currency' ? 'in its currency' : c.unit;
  const unit = withUnit && unitWords && c.unit !== 'count' ? ` ${unitWords}` : '';
  return `{${x}} (${constantValueWords(c.value, c.type)}${unit})`;
}
