import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { mini } from './fixtures/mini.ts';
import { renderDoc } from './renderDoc.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const update = process.env.UPDATE_GOLDEN === '1';

/** Compares to a golden file, or rewrites it under UPDATE_GOLDEN=1. */
function golden(path: string, actual: string, howToUpdate: string): void {
  if (update) {
    writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `${relative(root, path)} is missing: ${howToUpdate}`).toBe(true);
  const expected = readFileSync(path, 'utf8');
  expect(actual === expected, `${relative(root, path)} is out of date: ${howToUpdate}`).toBe(true);
  expect(actual).toBe(expected);
}

describe('renderDoc', () => {
  it('renders the mini app as its golden document', () => {
    golden(
      join(here, '__golden__', 'mini.md'),
      renderDoc(mini),
      'review the change, then run `UPDATE_GOLDEN=1 npx vitest run src/doc`',
    );
  });

  it('is deterministic: same spec, same text, also for a structural copy', () => {
    const first = renderDoc(mini);
    expect(renderDoc(mini)).toBe(first);
    expect(renderDoc(structuredClone(mini))).toBe(first);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('has the nine sections, numbered, in DESIGN.md order', () => {
    const headings = renderDoc(mini)
      .split('\n')
      .filter((l) => /^## /.test(l));
    expect(headings).toEqual([
      '## 1. Purpose',
      '## 2. Screens and routes',
      '## 3. Entities and fields',
      '## 4. States and transitions',
      '## 5. Validation rules',
      '## 6. Roles and permissions',
      '## 7. Calls',
      '## 8. Error catalogue',
      '## 9. Constants and limits',
    ]);
    expect(renderDoc(mini).startsWith('# Gear Lending\n')).toBe(true);
  });

  it('follows the spec key order, not alphabetical order', () => {
    const reversed: AppSpec = {
      ...mini,
      errors: Object.fromEntries(Object.entries(mini.errors).reverse()),
      constants: Object.fromEntries(Object.entries(mini.constants).reverse()),
    };
    const doc = renderDoc(reversed);
    expect(doc.indexOf('`NOTIFY_FAILED` |')).toBeLessThan(doc.indexOf('`LOAN_REASON_LENGTH` |'));
    expect(doc.indexOf('`lendingOpen` |')).toBeLessThan(doc.indexOf('`minReasonLength` |'));
  });

  it('keeps tables intact when user text holds | and line breaks', () => {
    const doc = renderDoc(mini);
    const row = doc.split('\n').find((l) => l.startsWith('| `serial` |'));
    expect(row).toBe(
      '| `serial` | Serial number | text | yes |   | yes |   | As printed \\| engraved<br>on the back |   |   |',
    );
    // every row of a table has as many unescaped cell separators as its header
    const cells = (l: string) => l.replace(/\\\|/g, '').split('|').length;
    for (const block of doc
      .trimEnd()
      .split('\n\n')
      .filter((b) => b.startsWith('| '))) {
      const lines = block.split('\n');
      for (const l of lines) expect(cells(l), l).toBe(cells(lines[0] ?? ''));
    }
  });

  it('draws each lifecycle as a Mermaid state diagram', () => {
    const doc = renderDoc(mini);
    expect(doc).toContain('```mermaid\nstateDiagram-v2\n');
    expect(doc).toContain('  [*] --> requested\n');
    expect(doc).toContain('  approved --> returned : Give back\n');
    expect(doc).toContain('  rejected --> [*]\n');
  });
});

/** The reference apps' committed documents must match their specs. */
describe.each(['helpdesk', 'expenses', 'tasks'])('docs/%s.md', (name) => {
  const specPath = join(root, 'examples', name, 'spec.ts');
  it.skipIf(!existsSync(specPath))('is up to date with the spec', async () => {
    const mod = (await import(specPath)) as { default: AppSpec };
    golden(join(root, 'docs', `${name}.md`), renderDoc(mod.default), 'run `npm run docs:examples`');
  });
});
