import { describe, expect, it } from 'vitest';
import { miniSpec } from '../check/fixtures/miniSpec.ts';
import { resolve } from '../model/resolve.ts';
import { renderCalls } from './renderCalls.ts';

describe('renderCalls', () => {
  const doc = renderCalls(resolve(miniSpec()));

  it('prints no create or update payload for an entity nobody may create or update', () => {
    // person: the profile entity, created at sign-up; no role may create or update it.
    expect(doc).not.toContain('// Create: POST /rest/v1/person');
    expect(doc).not.toContain('// Update: PATCH /rest/v1/person');
    expect(doc).toContain('// Create: POST /rest/v1/ticket');
    // comment: customers create, nobody updates.
    expect(doc).toContain('// Create: POST /rest/v1/comment');
    expect(doc).not.toContain('// Update: PATCH /rest/v1/comment');
  });

  it('says how to read the history of an entity with states', () => {
    expect(doc).toContain('| History | `GET /rest/v1/ticket_history?row_id=eq.{id}&order=at.asc` |');
    expect(doc).toMatch(/History: every transition appends one row to `ticket_history`/);
    expect(doc).not.toContain('comment_history');
  });
});
