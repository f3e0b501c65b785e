function b64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}

/** An unsigned JWT shaped like Supabase's (the adapter never verifies it; the project does). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.c2lnbmF0dXJl`;
}

export const USER_ID = '0b6f4a52-8d7e-4d1c-9f7e-1c2d3e4f5a6b';
export const ACCESS_TOKEN = fakeJwt({ sub: USER_ID, role: 'authenticated', exp: 4102444800 });

/** The body GoTrue answers `POST /auth/v1/token?grant_type=password` with. */
export function sessionBody(overrides: { expiresIn?: number; accessToken?: string } = {}) {
  const expiresIn = overrides.expiresIn ?? 3600;
  return {
    access_token: overrides.accessToken ?? ACCESS_TOKEN,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: Math.floor(Date.now() / 1000) + expiresIn,
    refresh_token: 'refresh-token-1',
    user: {
      id: USER_ID,
      aud: 'authenticated',
      role: 'authenticated',
      email: 'ada@example.com',
      app_metadata: { provider: 'email' },
      user_metadata: {},
      created_at: '2026-01-01T00:00:00Z',
    },
  };
}
