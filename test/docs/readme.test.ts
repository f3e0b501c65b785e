import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const README = readFileSync(resolve('README.md'), 'utf8');

/** What a first visitor needs from the README (issue 14): two commands, the port, where data lives. */
describe('README', () => {
  it('has exactly two set-up commands', () => {
    const blocks = README.match(/```sh\n[\s\S]*?```/g) ?? [];
    expect(blocks).toEqual(['```sh\nnpm install && npm start\n```', '```sh\nnpm ci && npm test\n```']);
  });

  it('says the port, that the data lives in the browser profile, and how to reset the demo', () => {
    expect(README).toMatch(/localhost:5173/);
    expect(README).toMatch(/browser profile/);
    expect(README).toMatch(/Reset demo data/);
  });

  it('links only to files in the repository', () => {
    for (const file of ['README.md', ...['architecture', 'decisions'].map((d) => `docs/${d}.md`)]) {
      const text = readFileSync(resolve(file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        expect(target, `${file} → ${target}`).not.toMatch(/^[a-z]+:/i);
        const path = resolve(dirname(file), (target ?? '').split('#')[0] ?? '');
        expect(existsSync(path), `${file} → ${target}`).toBe(true);
      }
    }
  });
});
