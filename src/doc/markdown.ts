/**
 * Small Markdown builders. Everything user-written (labels, help, descriptions) that lands in a
 * table cell goes through `cell`, so a `|` or a line break in the specification cannot break the
 * table.
 */

/**
 * Escapes text for one GitHub-flavoured Markdown table cell: `|` becomes `\|` (also inside code
 * spans, where GFM unescapes it), line breaks become `<br>`.
 *
 * @example
 * cell('a | b\nc'); // 'a \\| b<br>c'
 */
export function cell(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .trim()
      // Backslashes right before a pipe would escape the pipe's own escape: double them first.
      .replace(/\\(?=\\*\|)/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/\n/g, '<br>')
  );
}

/**
 * A Markdown table. Cells are escaped with `cell`; an empty table renders nothing.
 *
 * @example
 * table(['Code', 'Message'], [['E1', 'Too long']]);
 * // '| Code | Message |\n| --- | --- |\n| E1 | Too long |'
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const line = (cells: readonly string[]) => `| ${cells.map((c) => cell(c) || ' ').join(' | ')} |`;
  return [line(headers), `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n');
}

/**
 * Inline code that survives backticks in its content (uses a longer fence when needed).
 *
 * @example
 * code('a = b'); // '`a = b`'
 */
export function code(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const longest = runs.reduce((n, r) => Math.max(n, r.length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(' ') || text.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced block, e.g. `block('mermaid', lines)`. */
export function block(lang: string, body: string): string {
  return `\`\`\`${lang}\n${body}\n\`\`\``;
}

/** A bulleted list; items with line breaks are indented so they stay in their bullet. */
export function bullets(items: readonly string[]): string {
  return items.map((i) => `- ${i.replace(/\n/g, '\n  ')}`).join('\n');
}

/** Joins blocks with one blank line, dropping empty ones. */
export function joinBlocks(blocks: readonly (string | undefined | false)[]): string {
  return blocks.filter((b): b is string => typeof b === 'string' && b.length > 0).join('\n\n');
}

/**
 * "a, b and c" — lists read better than comma soup in prose.
 *
 * @example
 * andList(['Agent', 'Admin', 'Customer']); // 'Agent, Admin and Customer'
 */
export function andList(items: readonly string[], word = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/**
 * Escapes the characters that would turn plain text into Markdown syntax (emphasis, code spans,
 * HTML, links, strikethrough, entity references) with backslashes, for a label printed where
 * `ninefold import` reads it as text (headings, sentences, lists of names): the parser undoes
 * the escapes, so the label comes back as written. `|` is left to `cell`.
 *
 * @example
 * mdText('Due *date* <b>'); // 'Due \\*date\\* \\<b>'
 */
export function mdText(text: string): string {
  return text.replace(/[\\`*_<[\]~]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
}
