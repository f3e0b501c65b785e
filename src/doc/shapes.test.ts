import { describe, expect, it } from 'vitest';
import { resolve } from '../model/resolve.ts';
import { mini } from './fixtures/mini.ts';
import { createFields, updateFields } from './payloadFields.ts';
import { routeParams } from './routeParams.ts';
import { fieldTypeText, shapeText } from './shapes.ts';
import { parseSort } from './sortOrder.ts';

describe('payload shapes', () => {
  it('renders nested shapes, arrays and optional members', () => {
    expect(shapeText({ id: 'uuid', 'note?': 'string', tags: ['string'], sub: { 'n?': 'integer' } })).toBe(
      '{\n  id: uuid;\n  note?: string;\n  tags: string[];\n  sub: {\n    n?: integer;\n  };\n}',
    );
    expect(shapeText({})).toBe('{}');
  });

  it('types fields, enum values as literals, empty ones nullable', () => {
    const kind = mini.entities.device?.fields.kind;
    const value = mini.entities.device?.fields.value;
    expect(kind && fieldTypeText(resolve(mini), 'device', kind)).toBe("'laptop' | 'camera' | 'microphone'");
    expect(value && fieldTypeText(resolve(mini), 'device', value)).toBe('number | null');
    const status = mini.entities.loan?.fields.status;
    expect(status && fieldTypeText(resolve(mini), 'loan', status)).toBe(
      "'requested' | 'approved' | 'rejected' | 'returned'",
    );
  });

  it('leaves owner, status and transition-only fields out of create payloads', () => {
    expect(createFields(resolve(mini), 'loan')).toEqual(['device', 'reason', 'returnBy']);
    expect(updateFields(resolve(mini), 'loan')).toEqual(['reason', 'returnBy']);
  });
});

describe('screen text', () => {
  it('reads sort orders and route params', () => {
    expect(parseSort('-createdAt')).toEqual({ field: 'createdAt', descending: true });
    expect(parseSort('dueAt desc')).toEqual({ field: 'dueAt', descending: true });
    expect(parseSort('name.asc')).toEqual({ field: 'name', descending: false });
    expect(parseSort('name')).toEqual({ field: 'name', descending: false });
    expect(routeParams('/devices/:deviceId/borrow/:id')).toEqual(['deviceId', 'id']);
  });
});
