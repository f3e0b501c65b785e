import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from './compileMigration.ts';
import { constraintCatalogue } from './constraintNames.ts';
import { mini } from './fixtures/mini.ts';

const here = dirname(fileURLToPath(import.meta.url));
const goldenDir = join(here, '__golden__');

function golden(name: string, actual: string): void {
  const file = join(goldenDir, `${name}.sql`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.CI === 'true' && !existsSync(file)) throw new Error(`missing golden file ${file}`);
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual, `${file} differs (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

/** Reference apps, when they exist (written in parallel). */
async function loadExample(name: string): Promise<AppSpec | undefined> {
  const path = join(here, '..', '..', 'examples', name, 'spec.ts');
  if (!existsSync(path)) return undefined;
  const mod = (await import(path)) as Record<string, unknown>;
  const spec =
    mod.default ?? Object.values(mod).find((v) => typeof v === 'object' && v !== null && 'entities' in v);
  return spec as AppSpec | undefined;
}

describe('compileMigration', () => {
  it('matches the golden migration of the mini fixture (embedded and supabase)', () => {
    golden('mini', compileMigration(mini));
    golden('mini.supabase', compileMigration(mini, { target: 'supabase' }));
  });

  it('is deterministic', () => {
    expect(compileMigration(mini)).toBe(compileMigration(structuredClone(mini) as AppSpec));
  });

  it('forces RLS on every table and wraps auth.uid()', () => {
    const sql = compileMigration(mini);
    for (const t of ['person', 'ticket', 'comment', 'attachment', 'ticket_history']) {
      expect(sql).toContain(`alter table public.${t} force row level security;`);
    }
    expect(sql.replaceAll('(select auth.uid())', '')).not.toMatch(/[^.]auth\.uid\(\)(?!,)/);
  });

  it('never grants the status or owner columns for update', () => {
    const sql = compileMigration(mini);
    const updateGrant = sql
      .split('\n')
      .find((l) => l.startsWith('grant update') && l.includes('public.ticket '));
    expect(updateGrant).toBe(
      'grant update (title, body, priority, assignee) on table public.ticket to authenticated;',
    );
  });

  it('names validation constraints <table>__<code>__<n> and lists them', () => {
    const sql = compileMigration(mini);
    expect(sql).toContain('constraint ticket__title_too_short__1 check');
    expect(constraintCatalogue(mini).ticket__title_too_short__1).toEqual({
      entity: 'ticket',
      code: 'TITLE_TOO_SHORT',
      field: 'title',
      kind: 'validation',
    });
  });

  for (const name of ['helpdesk', 'expenses', 'tasks']) {
    it(`matches the golden migration of examples/${name} (when present)`, async (ctx) => {
      const spec = await loadExample(name);
      if (!spec) return ctx.skip(`examples/${name}/spec.ts does not exist yet`);
      golden(name, compileMigration(spec));
    });
  }
});
