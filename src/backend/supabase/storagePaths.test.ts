import { describe, expect, it } from 'vitest';
import { bucketName, objectPath } from './storagePaths.ts';

describe('storage paths', () => {
  it('names one bucket per files entity after its table', () => {
    expect(bucketName('ticketAttachment')).toBe('ticket_attachment');
  });

  it('keys objects <row id>/<name>, with characters Storage refuses replaced', () => {
    expect(objectPath('abc', 'invoice (1).pdf')).toBe('abc/invoice (1).pdf');
    expect(objectPath('abc', 'reçu/été#3.pdf')).toBe('abc/re_u__t__3.pdf');
    expect(objectPath('abc', '..')).toBe('abc/file');
    expect(objectPath('abc', '')).toBe('abc/file');
  });
});
