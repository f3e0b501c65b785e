import { readFileSync } from 'node:fs';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdownTree.ts';

const whole = (text: string) =>
  JSON.parse(
    JSON.stringify(fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })),
  );
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('parseMarkdown (parsed section by section)', () => {
  const documents = [
    'docs/helpdesk.md',
    'docs/expenses.md',
    'docs/tasks.md',
    'src/import/templates/blank.md',
    'docs/nine-point-format.md',
  ];

  it.each(documents)('gives the tree of the whole document at once: %s', (file) => {
    const text = read(file);
    expect(JSON.parse(JSON.stringify(parseMarkdown(text)))).toEqual(whole(text));
  });

  it('gives the same tree after an edit, its sections parsed again or reused', () => {
    const text = read('docs/helpdesk.md');
    parseMarkdown(text);
    const edited = text.replace('assignee = me and', 'asignee = me and');
    expect(JSON.parse(JSON.stringify(parseMarkdown(edited)))).toEqual(whole(edited));
  });

  it.each([
    ['fenced code', '# A\n\n````\n## not a section\n```\n\n## still code\n````\n\n## B\n\ntext\n'],
    ['an HTML comment', '# A\n\n<!-- a comment\n\n## still the comment\n-->\n\n## B\n'],
    ['raw HTML', '# A\n\n<pre>\n\n## preformatted\n</pre>\n\n<div>\n# in the div\n</div>\n\n## B\n'],
  ])('does not cut inside %s', (_, text) => {
    expect(JSON.parse(JSON.stringify(parseMarkdown(text)))).toEqual(whole(text));
  });
});
