import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29: the runtime and the React layer read the resolved model (`AppModel`), never the raw
 * specification. The spec type stays only at the doors, each for a reason said here.
 */
const DOORS: Record<string, string> = {
  // `<NinefoldApp spec={…}>` is the public API: it resolves the spec once, here.
  'src/react/NinefoldApp.tsx': 'resolves the spec at the door',
  // The typed hooks are generic over the spec's literal type (its entities' row types).
  'src/react/appHooks.ts': 'types only',
  // Translations replace the spec's own texts before `resolve` (labels are resolved in the model).
  'src/runtime/localizeSpec.ts': 'runs before resolve',
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'testing' ? [] : files(p);
    return /\.tsx?$/.test(d.name) && !/\.test(-d)?\./.test(d.name) ? [p] : [];
  });
}

const sources = [...files('src/runtime'), ...files('src/react')].map((f) => ({
  file: f.replaceAll('\\', '/'),
  text: readFileSync(f, 'utf8'),
}));

describe('issue 29: runtime and react read AppModel', () => {
  it('names the raw spec type (AppSpec) only at the doors', () => {
    const readers = sources.filter((s) => /\bAppSpec\b/.test(s.text)).map((s) => s.file);
    expect(readers.sort()).toEqual(Object.keys(DOORS).sort());
  });

  it('looks up no profile entity and walks no role inheritance of its own', () => {
    const profileLookups = sources.filter((s) => /\.find\(\(\[, *\w+\]\) => \w+\.profile\)/.test(s.text));
    const inheritanceWalks = sources.filter((s) => /\.inherits\b/.test(s.text));
    expect(profileLookups.map((s) => s.file)).toEqual([]);
    expect(inheritanceWalks.map((s) => s.file)).toEqual([]);
  });
});
