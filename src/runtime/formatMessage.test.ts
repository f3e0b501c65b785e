import { describe, expect, it } from 'vitest';
import { BUILTIN_ERROR_CODES } from '../backend/types.ts';
import { formatMessage, messageSeverity } from './formatMessage.ts';
import { UI_TEXT } from './uiText.ts';

const spec = {
  errors: {
    TOO_MANY: { message: 'At most {maxFiles} files, you have {count}.', severity: 'warning' as const },
    LIST: { message: 'Allowed: {kinds}.', severity: 'error' as const },
  },
  constants: {
    maxFiles: { value: 5, label: 'Max files' },
    kinds: { value: ['a', 'b'], label: 'Kinds' },
  },
};

describe('formatMessage', () => {
  it('fills placeholders from constants and params', () => {
    expect(formatMessage(spec, 'TOO_MANY', { count: 7 })).toBe('At most 5 files, you have 7.');
  });
  it('joins list constants', () => {
    expect(formatMessage(spec, 'LIST')).toBe('Allowed: a, b.');
  });
  it('params win over constants', () => {
    expect(formatMessage(spec, 'TOO_MANY', { maxFiles: 3, count: 4 })).toBe('At most 3 files, you have 4.');
  });
  it('falls back to UI text for built-in codes', () => {
    expect(formatMessage(spec, 'NOT_FOUND')).toMatch(/not available to you/);
    expect(formatMessage(spec, 'CONFLICT')).toMatch(/changed by someone else/);
  });
  it('never shows an unknown code raw', () => {
    const m = formatMessage(spec, 'duplicate key value violates unique constraint "x"');
    expect(m).not.toMatch(/duplicate key/);
    expect(m).toMatch(/Something went wrong/);
  });
  it('severity comes from the catalogue', () => {
    expect(messageSeverity(spec, 'TOO_MANY')).toBe('warning');
    expect(messageSeverity(spec, 'FORBIDDEN')).toBe('error');
  });
});

describe('built-in error codes', () => {
  it('each has its own message, never the generic fallback', () => {
    const empty = { errors: {}, constants: {} };
    const generic = BUILTIN_ERROR_CODES.filter((c) => formatMessage(empty, c) === UI_TEXT.error_UNKNOWN);
    expect(generic).toEqual([]);
  });
});
