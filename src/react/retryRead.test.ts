import { describe, expect, it } from 'vitest';
import { BackendError } from '../model/builtinCodes.ts';
import { retryRead } from './retryRead.ts';

describe('retryRead: which failed reads are asked again', () => {
  it('asks once more after a failure that may pass', () => {
    expect(retryRead(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryRead(0, new BackendError('UNAVAILABLE'))).toBe(true);
    expect(retryRead(1, new BackendError('UNAVAILABLE'))).toBe(false);
  });
  it('takes a refusal as the answer', () => {
    for (const code of ['FORBIDDEN', 'NOT_FOUND', 'UNKNOWN_ENTITY', 'NOT_SIGNED_IN', 'INVALID_INPUT'])
      expect(retryRead(0, new BackendError(code))).toBe(false);
  });
});
