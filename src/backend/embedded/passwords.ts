/**
 * Password hashing for the embedded auth stand-in: PBKDF2-SHA256 through WebCrypto (the same code
 * in the browser, the worker and Node), a random 16-byte salt per password, 210 000 iterations
 * (OWASP 2023 guidance for PBKDF2-SHA256). Stored as `pbkdf2-sha256$<iterations>$<salt>$<hash>`
 * so the iteration count can be raised later without breaking existing accounts.
 */

const ITERATIONS = 210_000;
const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * Hashes a password with a fresh random salt.
 *
 * @example
 * const stored = await hashPassword('correct horse'); // 'pbkdf2-sha256$210000$...$...'
 */
export async function hashPassword(password: string, iterations = ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/**
 * Checks a password against a stored hash in constant time (over the hash bytes).
 *
 * @example
 * await verifyPassword('correct horse', stored); // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, salt, hash] = stored.split('$');
  const iterations = Number(iter);
  if (scheme !== 'pbkdf2-sha256' || !salt || !hash || !Number.isInteger(iterations) || iterations < 1)
    return false;
  const expected = fromBase64(hash);
  const actual = await derive(password, fromBase64(salt), iterations);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= (actual[i] ?? 0) ^ (expected[i] ?? 0);
  return diff === 0;
}

/** A stored hash for no password at all: verifying against it costs the same as a real one. */
export const DUMMY_HASH =
  'pbkdf2-sha256$210000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** A random opaque token (session ids) and its SHA-256, which is what the database keeps. */
export function randomToken(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return toBase64(new Uint8Array(digest));
}
