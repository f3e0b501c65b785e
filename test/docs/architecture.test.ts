/**
 * Issue 29: docs/architecture.md describes the house as it is. Its layer table and the layer
 * rules that `npm test` enforces (.dependency-cruiser.cjs) list the same layers, in the same
 * order, with the same members.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Layer {
  name: string;
  members: string[];
}

const config = createRequire(import.meta.url)(resolve('.dependency-cruiser.cjs')) as { layers: Layer[] };
const doc = readFileSync(resolve('docs/architecture.md'), 'utf8');

/** The rows of the table in "## The layers": layer name and the backticked members. */
function documentedLayers(): Layer[] {
  const section = doc.split(/^## /m).find((s) => s.startsWith('The layers')) ?? '';
  return section
    .split('\n')
    .filter((line) => /^\| [a-z]+ \|/.test(line))
    .map((line) => {
      const [, name = '', members = ''] = line.split('|').map((cell) => cell.trim());
      return { name, members: [...members.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '') };
    });
}

describe('issue 29: docs/architecture.md', () => {
  it('issue 29: the layer table lists the layers of the enforced rules, bottom first, with the same members', () => {
    const documented = documentedLayers();
    expect(documented.length).toBeGreaterThan(5);
    expect(documented).toEqual(config.layers.map((l) => ({ name: l.name, members: l.members })));
  });
});
