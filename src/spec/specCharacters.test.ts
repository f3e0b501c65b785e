import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSpec } from '../check/checkSpec.ts';
import { validateSpec } from '../check/validateSpec.ts';
import { tasks } from '../import/fixtures/tasks.ts';
import { importDoc } from '../import/importDoc.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import { defineApp } from './defineApp.ts';
import type { AppSpec } from './types.ts';

const loose = readFileSync(new URL('../import/fixtures/tasks-loose.md', import.meta.url), 'utf8');

function withName(name: string): AppSpec {
  const spec = structuredClone(tasks) as AppSpec;
  spec.purpose.name = name;
  return spec;
}

describe('finding 28.1: spec text never runs as SQL (the door)', () => {
  it('finding 28.1: a nine-point document whose setext title holds a bare carriage return is refused at import', () => {
    // The attack of the review: the app's name is a setext heading; a bare \r inside it ended the
    // `--` comment of the migration's first line, and what followed ran as SQL.
    const md = loose.replace(/^# Team Tasks\n/, 'Team Tasks\rcreate table public.pwned (x int);\n===\n');
    expect(md).not.toBe(loose);
    const r = importDoc(md);
    expect(r.spec).toBeNull();
    const d = r.diagnostics.find((x) => x.path === 'purpose.name');
    expect(d, JSON.stringify(r.diagnostics)).toBeDefined();
    expect(d?.message).toContain('U+000D (carriage return)');
    expect(d?.at?.line).toBeGreaterThan(0);
  });

  it('finding 28.1: defineApp refuses a carriage return where the spec is written', () => {
    const spec = withName('Tasks\rcreate table public.pwned (x int);');
    expect(() => defineApp(spec as Parameters<typeof defineApp>[0])).toThrow(/purpose\.name: .*U\+000D/);
    expect(() => defineApp(tasks as Parameters<typeof defineApp>[0])).not.toThrow();
  });

  it('finding 28.1: check refuses a carriage return in the app name, with path, problem and fix', () => {
    const r = checkSpec(withName('Tasks\rcreate table public.pwned (x int);'));
    expect(r.spec).toBeNull();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'spec/invalid-value',
        path: 'purpose.name',
        message: expect.stringContaining('U+000D (carriage return) at character 6'),
        hint: expect.stringContaining('remove it'),
      }),
    ]);
  });

  it.each([
    ['NUL', '\u0000'],
    ['line feed', '\n'],
    ['vertical tab', '\v'],
    ['form feed', '\f'],
    ['next line', '\u0085'],
    ['line separator', '\u2028'],
    ['paragraph separator', '\u2029'],
    ['escape', '\u001b'],
  ])('finding 28.1: single-line slots refuse %s', (_, ch) => {
    const spec = structuredClone(tasks) as AppSpec;
    const first = Object.values(spec.screens)[0] as AppSpec['screens'][string];
    first.title = `A${ch}B`;
    const task = spec.entities.task as AppSpec['entities'][string];
    task.label = `L${ch}`;
    const r = validateSpec(spec);
    expect(r.spec).toBeNull();
    expect(r.diagnostics.map((d) => d.path).sort()).toEqual(
      [`screens.${Object.keys(spec.screens)[0]}.title`, 'entities.task.label'].sort(),
    );
  });

  it('finding 28.1: names (keys) with control characters are refused', () => {
    const spec = structuredClone(tasks) as AppSpec;
    spec.translations = { 'fr\r': {} };
    const r = validateSpec(spec);
    expect(r.spec).toBeNull();
    expect(r.diagnostics[0]?.message).toContain('the name holds U+000D');
  });

  it('finding 28.1: long texts keep line breaks and tabs, but not a carriage return', () => {
    const ok = structuredClone(tasks) as AppSpec;
    ok.purpose.summary = 'Line one\n\tline two';
    expect(validateSpec(ok).diagnostics).toEqual([]);
    const bad = structuredClone(tasks) as AppSpec;
    bad.purpose.summary = 'Line one\r\nline two';
    const r = validateSpec(bad);
    expect(r.diagnostics.map((d) => d.path)).toEqual(['purpose.summary']);
  });

  it('finding 28.1: a rule holding a carriage return is refused before it is compiled', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const screen = Object.values(spec.screens).find(
      (s) => s.entity !== undefined,
    ) as AppSpec['screens'][string];
    screen.where = 'true\rcreate table public.pwned (x int);';
    expect(validateSpec(spec).diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('U+000D')]);
  });

  it('finding 28.1: even unvalidated, a hostile name compiles to a comment, not to a statement', () => {
    const sql = compileMigration(withName('Tasks\rcreate table public.pwned (x int);\u2028drop table x;'));
    const first = sql.split('\n').slice(0, 3);
    expect(first[0]).toMatch(/^-- Ninefold migration for "Tasks/);
    expect(sql).not.toMatch(/[\r\u2028\u2029]/);
    for (const line of sql.split('\n').filter((l) => l.includes('pwned'))) expect(line).toMatch(/^-- /);
  });
});
