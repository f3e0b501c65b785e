import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkDocument, MAX_LINK_CHARS, shareFragment } from './shareLink.ts';

const HELPDESK = readFileSync('docs/helpdesk.md', 'utf8');

describe('share link', () => {
  it('carries the exact document, compressed, in base64url', async () => {
    const text = `${HELPDESK}\nÄrger mit Umlauten – und 🎫\n`;
    const fragment = await shareFragment(text);
    expect(fragment).toMatch(/^doc=1\.[A-Za-z0-9_-]+$/);
    expect(fragment.length).toBeLessThan(text.length / 2);
    expect(await linkDocument(`#${fragment}`)).toEqual({ kind: 'doc', text });
  });

  it('says there is none when the fragment is something else', async () => {
    expect(await linkDocument('')).toEqual({ kind: 'none' });
    expect(await linkDocument('#section-2')).toEqual({ kind: 'none' });
  });

  it('refuses a damaged, foreign or oversized link with its reason', async () => {
    const fragment = await shareFragment(HELPDESK);
    const problem = async (hash: string) => {
      const found = await linkDocument(hash);
      return found.kind === 'problem' ? found.problem : found.kind;
    };
    expect(await problem(fragment.slice(0, fragment.length - 40))).toBe('corrupt');
    expect(await problem('doc=1.not*base64')).toBe('corrupt');
    expect(await problem('doc=1.AAAA')).toBe('corrupt');
    expect(await problem('doc=1')).toBe('corrupt');
    expect(await problem(fragment.replace('doc=1.', 'doc=2.'))).toBe('version');
    expect(await problem(`doc=1.${'A'.repeat(MAX_LINK_CHARS)}`)).toBe('tooLarge');
  });

  it('stops unpacking a small link that would unpack into a huge document', async () => {
    const bomb = await shareFragment('x'.repeat(9_000_000));
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARS);
    expect(await linkDocument(bomb)).toEqual({ kind: 'problem', problem: 'tooLarge' });
  });
});
