import { describe, expect, it } from 'vitest';
import { BackendError } from '../../types.ts';
import { fromWireError, PORT_METHODS, toWireError } from './protocol.ts';

describe('worker protocol', () => {
  it('carries a BackendError across as its code, params and field (structured-clone safe)', () => {
    const e = new BackendError('DESCRIPTION_TOO_SHORT', { min: 20 }, 'ticket.description');
    const wire = structuredClone(toWireError(e));
    const back = fromWireError(wire);
    expect(back).toBeInstanceOf(BackendError);
    expect({ code: back.code, params: back.params, field: back.field }).toEqual({
      code: 'DESCRIPTION_TOO_SHORT',
      params: { min: 20 },
      field: 'ticket.description',
    });
  });

  it('turns anything else into INTERNAL, keeping the message for the console only', () => {
    const back = fromWireError(structuredClone(toWireError(new Error('boom'))));
    expect(back.code).toBe('INTERNAL');
    expect((back as { cause?: unknown }).cause).toBe('boom');
  });

  it('offers no method that takes a callback', () => {
    expect(PORT_METHODS.auth).not.toContain('onChange');
    expect(Object.keys(PORT_METHODS)).not.toContain('live');
  });
});
