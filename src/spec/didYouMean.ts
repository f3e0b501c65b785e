import { suggest } from './suggest.ts';

/**
 * The hint for a misspelt name: `did you mean "assignee"?`, or undefined when nothing is close.
 *
 * @example
 * didYouMean('asignee', ['assignee', 'title']); // 'did you mean "assignee"?'
 * didYouMean('titel', ['title']);               // 'did you mean "title"?'
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const best = suggest(name, list) ?? list.find((c) => isSwap(name, c));
  return best === undefined ? undefined : `did you mean ${JSON.stringify(best)}?`;
}

/** Two neighbouring letters swapped (`titel`/`title`): the commonest typo, two edits for Levenshtein. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
  const [i, j] = diff;
  return diff.length === 2 && i !== undefined && j === i + 1 && a[i] === b[j] && a[j] === b[i];
}
