import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29: the runtime and the React layer read the resolved model (`AppModel`), never the raw
 * specification. `<NinefoldApp spec={…}>` takes a spec or a model (`SpecOrModel`) and resolves it
 * once (`modelOf`); the typed hooks are generic over `App`, the type `defineApp` returns; the
 * translations apply to the spec before `resolve`, in the spec layer (src/spec/localizeSpec.ts).
 */
const DOORS: Record<string, string> = {};

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
