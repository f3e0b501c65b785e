import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostics.ts';
import { loadSpec } from '../import/loadSpec.ts';
import { lintSpec } from './lintSpec.ts';

describe('the reference apps', () => {
  for (const name of ['helpdesk', 'expenses', 'tasks']) {
    it(`${name} loads, validates and lints with no findings`, async () => {
      const r = await loadSpec(fileURLToPath(new URL(`../../examples/${name}`, import.meta.url)));
      const found = [...r.diagnostics, ...(r.ok ? lintSpec(r.spec) : [])].map(
        (d) => `${d.severity} ${formatDiagnostic(d)}`,
      );
      expect(found).toEqual([]);
      expect(r.ok).toBe(true);
    });
  }
});
