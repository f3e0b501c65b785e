import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import helpdesk from '../examples/helpdesk/spec.ts';
import { resolve } from '../src/model/resolve.ts';
import type { AppSpec } from '../src/spec/types.ts';
import { changeSinceSave, modelTexts } from './modelTexts.ts';

const model = resolve(helpdesk);

describe('modelTexts', () => {
  it('prints what `ninefold types` and `ninefold openapi` print (their golden files)', () => {
    const texts = modelTexts(model);
    expect(texts.types).toBe(readFileSync('src/printers/__golden__/helpdesk.types.ts', 'utf8'));
    expect(texts.openApi).toBe(readFileSync('src/printers/__golden__/helpdesk.openapi.json', 'utf8'));
    expect(texts.sql).toContain('create table');
    expect(texts.doc).toMatch(/^# Helpdesk/);
  });
});

describe('changeSinceSave', () => {
  const withField: AppSpec = structuredClone(helpdesk);
  withField.entities.ticket = {
    ...withField.entities.ticket,
    fields: { ...withField.entities.ticket?.fields, channel: { type: 'text', default: 'email' } },
  } as AppSpec['entities'][string];

  it('is nothing when the model is the saved one, and savedInvalid without a saved model', () => {
    expect(changeSinceSave(model, resolve(structuredClone(helpdesk)))).toEqual({ kind: 'none' });
    expect(changeSinceSave(null, model)).toEqual({ kind: 'savedInvalid' });
  });

  it('is the planner’s migration for an added field', () => {
    const change = changeSinceSave(model, resolve(withField));
    expect(change.kind).toBe('plan');
    if (change.kind !== 'plan') return;
    expect(change.changes.join('\n')).toContain('channel');
    expect(change.sql).toMatch(/alter table[^;]*add column[^;]*channel/i);
  });

  it('is the planner’s refusal for a removed field (its data would be lost)', () => {
    const change = changeSinceSave(resolve(withField), model);
    expect(change.kind).toBe('refused');
    if (change.kind === 'refused') expect(change.refused.join('\n')).toContain('channel');
  });
});
