/**
 * Spec text in generated code (TypeScript, inline scripts): always a string literal or a comment
 * made here, so no text can end the literal or the comment and be read as code. JavaScript ends a
 * `//` comment at `\r`, `\n`, U+2028 and U+2029; an HTML parser ends an inline script at
 * `</script` and changes mode at `<!--`.
 */

/** Every line terminator JavaScript knows, and the ones a viewer or a client may treat as such. */
const LINE_BREAKS = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const OTHER_CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu;

/**
 * A JavaScript/TypeScript string literal (double-quoted) for any text: JSON's escapes plus the
 * line and paragraph separators, so it is one line in every editor and every older parser.
 *
 * @example
 * jsString('a\u2028b'); // '"a\\u2028b"'
 */
export function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Any text as `//` comment lines, one per line of the text whatever ended it.
 *
 * @example
 * lineComment('Tasks\rprocess.exit()'); // '// Tasks\n// process.exit()'
 */
export function lineComment(text: string, prefix = '// '): string {
  return text
    .split(LINE_BREAKS)
    .map((line) => `${prefix}${line.replace(OTHER_CONTROLS, '\uFFFD')}`.trimEnd())
    .join('\n');
}

/**
 * Text for one line inside a `/* … *\/` comment: `*\/` cannot close it, and a line break cannot
 * start a line that a tool reads as something else.
 *
 * @example
 * blockCommentLine('a *\/ b'); // 'a * / b' (the text holds a star and a slash)
 */
export function blockCommentLine(text: string): string {
  return text.split(LINE_BREAKS).join(' ').replace(OTHER_CONTROLS, '\uFFFD').replace(/\*\//g, '* /');
}

/**
 * A value as JSON that may stand inside an HTML `<script>`: `<`, `>` and `&` escaped (no
 * `</script>`, no `<!--`), and the line and paragraph separators.
 *
 * @example
 * inlineScriptJson('</script>'); // '"\\u003c/script\\u003e"'
 */
export function inlineScriptJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
