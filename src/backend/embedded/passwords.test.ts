import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, randomToken, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with a random salt, at least 100k iterations, never the plain text', async () => {
    const a = await hashPassword('demo-agent');
    const b = await hashPassword('demo-agent');
    expect(a).not.toBe(b);
    expect(a).not.toContain('demo-agent');
    expect(Number(a.split('$')[1])).toBeGreaterThanOrEqual(100_000);
    expect(await verifyPassword('demo-agent', a)).toBe(true);
    expect(await verifyPassword('demo-agenT', a)).toBe(false);
  });

  it('refuses malformed hashes and the dummy hash', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
  });

  it('makes distinct url-safe tokens', () => {
    const t = randomToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(t);
  });
});
