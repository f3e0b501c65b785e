import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A lint-style guard for the message catalogue: no user-visible English written straight into the
 * generated app's components. Pragmatic, not a parser: it looks for JSX text between tags and
 * for string literals in the props people read (label, placeholder, title, aria-label, ...).
 * Texts belong in `src/runtime/uiText.ts` (and its locale files) or in the specification.
 */
const ROOTS = ['src/react', 'app'];
const PROPS = 'label|placeholder|title|aria-label|description|alt|message|confirmLabel|cancelLabel';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return files(p);
    return /\.tsx$/.test(d.name) && !/\.test\./.test(d.name) ? [p] : [];
  });
}

/** Comments say why in English; they are not shown. */
const withoutComments = (src: string) =>
  src
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

function literalTexts(src: string): string[] {
  const code = withoutComments(src);
  const found: string[] = [];
  // Text between a JSX tag's `>` (not an arrow's `=>`) and the next `<`: words, not code.
  for (const m of code.matchAll(/(?<![=-])>([^<>{}]*[A-Za-z]{2,}[^<>{}]*)</g)) {
    const t = m[1]!.trim();
    if (t && !/[=;():,&|]/.test(t)) found.push(t);
  }
  for (const m of code.matchAll(
    new RegExp(`\\b(?:${PROPS})=(?:"([^"]*[A-Za-z]{2}[^"]*)"|\\{'([^']*[A-Za-z]{2}[^']*)'\\})`, 'g'),
  ))
    found.push(m[1] ?? m[2]!);
  for (const m of code.matchAll(/\b(?:title|message|label):\s*'([^']*[A-Za-z]{2}[^']*)'/g)) found.push(m[1]!);
  return found;
}

describe('no literal UI text in components', () => {
  it('the scanner finds JSX text and literal props (so the guard can fail)', () => {
    expect(literalTexts('<Button>Save now</Button>')).toEqual(['Save now']);
    expect(literalTexts('<TextInput label="Your name" />')).toEqual(['Your name']);
    expect(literalTexts("<Tooltip label={'Close it'} />")).toEqual(['Close it']);
    expect(literalTexts("notifications.show({ title: 'Saved' })")).toEqual(['Saved']);
    expect(literalTexts("<Button>{ui('save')}</Button> {/* Save */}")).toEqual([]);
  });

  it('every text in src/react and app comes from the catalogue or the specification', () => {
    const offenders = ROOTS.flatMap(files).flatMap((f) =>
      literalTexts(readFileSync(f, 'utf8')).map((t) => `${f}: ${JSON.stringify(t)}`),
    );
    expect(offenders).toEqual([]);
  });
});
