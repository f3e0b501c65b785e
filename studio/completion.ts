import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * The names a sentence of the document may use, from the last specification that had no errors:
 * entities, fields (with their entity), states, transitions, roles, error codes and constants.
 *
 * @example
 * specNames(helpdesk).find((c) => c.label === 'assignee'); // { label: 'assignee', type: 'property', detail: 'field of ticket' }
 */
export function specNames(spec: AppSpec): Completion[] {
  const out: Completion[] = [];
  const seen = new Set<string>();
  const add = (label: string, type: string, detail: string) => {
    const key = `${label} ${detail}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ label, type, detail });
  };
  for (const [entity, e] of Object.entries(spec.entities)) {
    add(entity, 'class', 'entity');
    for (const field of Object.keys(e.fields)) add(field, 'property', `field of ${entity}`);
  }
  for (const [entity, s] of Object.entries(spec.states)) {
    for (const state of Object.keys(s.states)) add(state, 'enum', `state of ${entity}`);
    for (const t of Object.keys(s.transitions)) add(t, 'function', `transition of ${entity}`);
  }
  for (const role of Object.keys(spec.roles.roles)) add(role, 'keyword', 'role');
  for (const code of Object.keys(spec.errors)) add(code, 'constant', 'error');
  for (const name of Object.keys(spec.constants)) add(name, 'variable', 'constant');
  add('me', 'keyword', 'the signed-in person');
  add('now', 'keyword', 'the current time');
  return out;
}

/**
 * Completion where a sentence expects a name: inside a code span (`…`), where rules and keys are
 * written, or anywhere when asked for (Ctrl+Space). The names come from `names()`, the last valid
 * specification's.
 */
export function nameCompletion(names: () => readonly Completion[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[A-Za-z_][\w]*/);
    if (!word && !context.explicit) return null;
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const inCode = (before.match(/`/g)?.length ?? 0) % 2 === 1;
    if (!inCode && !context.explicit) return null;
    return { from: word ? word.from : context.pos, options: [...names()], validFor: /^[\w]*$/ };
  };
}
