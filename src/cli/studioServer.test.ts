import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_ENDPOINT, studio, studioDocument } from './studioServer.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ninefold-studio-server-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('studioDocument', () => {
  it('opens a nine-point document as it is, to be saved in place', async () => {
    const file = join(tmp, 'app.md');
    writeFileSync(file, '# App\n');
    expect(await studioDocument('app.md', tmp)).toEqual({ text: '# App\n', file, name: 'app.md' });
  });

  it('opens a spec folder as its document, saved as doc.md beside the spec', async () => {
    const doc = await studioDocument('examples/helpdesk', process.cwd());
    expect(doc.text).toBe(readFileSync('docs/helpdesk.md', 'utf8'));
    expect(doc.file).toBe(join(process.cwd(), 'examples/helpdesk/doc.md'));
  });

  it('opens the blank template without a path, saved as doc.md in the folder', async () => {
    const doc = await studioDocument(undefined, tmp);
    expect(doc.text).toBe(readFileSync('src/import/templates/blank.md', 'utf8'));
    expect(doc.file).toBe(join(tmp, 'doc.md'));
  });
});

describe('studio (the dev server)', () => {
  it('serves the studio and the document, and a save writes the file', async () => {
    const file = join(tmp, 'saved.md');
    writeFileSync(file, '# Before\n');
    const { url, close } = await studio('saved.md', { cwd: tmp, port: 5390 });
    try {
      expect(await (await fetch(url)).text()).toContain('Ninefold Studio');
      expect(await (await fetch(new URL(DOC_ENDPOINT, url))).json()).toEqual({
        text: '# Before\n',
        name: 'saved.md',
      });
      const put = await fetch(new URL(DOC_ENDPOINT, url), { method: 'PUT', body: '# After\n' });
      expect(await put.json()).toEqual({ saved: 'saved.md' });
      expect(readFileSync(file, 'utf8')).toBe('# After\n');
      expect((await (await fetch(new URL(DOC_ENDPOINT, url))).json()).text).toBe('# After\n');
    } finally {
      await close();
    }
  });
});
