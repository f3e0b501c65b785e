import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { NAME_RULES, type NameKind, nameProblem } from '../spec/specNames.ts';
import { ninefoldDependency } from './initProject.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

describe('ninefold init: a project that installs', () => {
  it('issue 31.1: the new project depends on the checkout init runs from (file:), which npm can install, and says so', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nf-init-dep-')), 'my-app');
    const t = io();
    expect(await main(['init', '--from', 'blank', dir], t.io)).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    // Not `^0.1.0`: ninefold is not on the npm registry, so a version range would not install.
    expect(pkg.dependencies).toEqual({ ninefold: `file:${realpathSync(ROOT)}` });
    expect(pkg.scripts.preview).toBe('ninefold preview dist');
    const said = t.out.join('');
    expect(said).toContain(`the Ninefold checkout at ${realpathSync(ROOT)}`);
    expect(said).toContain(`next: cd ${dir} && npm install && npx ninefold dev doc.md`);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('npx ninefold preview dist');
  });

  it("issue 31.1: a copy installed in another project passes on that project's file: dependency, a registry copy its version", () => {
    const project = mkdtempSync(join(tmpdir(), 'nf-init-installed-'));
    const installed = join(project, 'node_modules', 'ninefold');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), '{"name":"ninefold","version":"0.1.0"}');
    writeFileSync(
      join(project, 'package.json'),
      '{"dependencies":{"ninefold":"file:packs/ninefold-0.1.0.tgz"}}',
    );
    expect(ninefoldDependency(installed)).toMatchObject({
      spec: `file:${join(realpathSync(project), 'packs/ninefold-0.1.0.tgz')}`,
      linked: false,
    });
    writeFileSync(join(project, 'package.json'), '{"dependencies":{"ninefold":"^0.1.0"}}');
    expect(ninefoldDependency(installed).spec).toMatch(/^\^\d+\.\d+\.\d+/);
  });

  it("issue 31.1: init refuses a folder inside the toolkit's own repository (also through a link) unless --inside-toolkit", async () => {
    const inside = join(ROOT, `.nf-init-test-${process.pid}`);
    const link = join(mkdtempSync(join(tmpdir(), 'nf-init-link-')), 'toolkit');
    symlinkSync(ROOT, link);
    try {
      for (const dir of [inside, join(link, `.nf-init-test-${process.pid}`)]) {
        const t = io();
        expect(await main(['init', dir], t.io)).toBe(2);
        const said = t.err.join('');
        expect(said).toMatch(/^✗ INIT_INSIDE_TOOLKIT: .* is inside the Ninefold toolkit's own folder/);
        expect(said).toContain('--inside-toolkit');
        expect(existsSync(dir)).toBe(false);
      }
      const t = io();
      expect(await main(['init', '--inside-toolkit', inside], t.io)).toBe(0);
      expect(existsSync(join(inside, 'doc.md'))).toBe(true);
    } finally {
      rmSync(inside, { recursive: true, force: true });
    }
  });
});

describe('the blank template', () => {
  it('issue 31 (low): its comment names each kind of key in the shape check accepts today (states and transitions camelCase or snake_case)', () => {
    const template = readFileSync(new URL('./templates/blank.md', import.meta.url), 'utf8');
    const comment = template.slice(template.indexOf('<!--'), template.indexOf('-->'));
    // "- states, transitions: lower camelCase or snake_case, as `inProgress`, `sendBack`, `in_progress`"
    const words: Record<string, NameKind> = {
      entities: 'entity',
      fields: 'field',
      roles: 'role',
      constants: 'constant',
      states: 'state',
      transitions: 'transition',
      'error codes': 'error',
      screens: 'screen',
      'declared calls': 'call',
    };
    const covered = new Map<NameKind, string[]>();
    for (const [, kinds, examples] of comment.matchAll(/^\s*- ([a-z ,]+): [^\n]*?, as ([^\n]+)$/gm)) {
      const names = [...(examples ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
      for (const word of (kinds ?? '').split(', ')) {
        const kind = words[word];
        expect(kind, `"${word}" in the template`).toBeDefined();
        if (kind) covered.set(kind, names);
      }
    }
    expect([...covered.keys()].sort()).toEqual(Object.keys(NAME_RULES).sort());
    for (const [kind, names] of covered) {
      expect(names.length, kind).toBeGreaterThan(0);
      for (const name of names) expect(nameProblem(kind, name), `${kind} \`${name}\``).toBeNull();
    }
  });
});
