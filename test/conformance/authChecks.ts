import { describe, expect, it } from 'vitest';
import type { ConformanceContext } from './context.ts';

/** Sign-up, sign-in, sign-out and session expiry: the same for every spec with a sign-up role. */
export function authChecks(ctx: ConformanceContext): void {
  const { model, options, rejects, as } = ctx;
  const b = () => ctx.b();
  const someone = () => Object.values(options.accounts)[0];

  describe('auth', () => {
    it('signs up with the sign-up role, keeps the session, tells listeners', async () => {
      const events: string[] = [];
      const off = b().auth.onChange((e) => events.push(e));
      await b().auth.signOut();
      const email = ctx.freshEmail('ana');
      const s = await b().auth.signUp({ email, password: 'correct-horse', name: 'Ana Lima' });
      expect(s.user.email).toBe(email);
      expect(s.user.roles).toEqual([ctx.roles.signup]);
      expect(s.expiresAt).toBeGreaterThan(ctx.clock.now);
      expect((await b().auth.session())?.user.id).toBe(s.user.id);
      // The name given at sign-up lands on the profile row, where the spec has one with a name.
      if (model.profile && model.tables.get(model.profile)?.byField.has('name'))
        expect((await b().data.get(model.profile, s.user.id)).name).toBe('Ana Lima');
      expect(events).toEqual(['SIGNED_OUT', 'SIGNED_IN']);
      off();
    });

    it('refuses a second sign-up with the same e-mail (any case)', async () => {
      const email = ctx.freshEmail('dup');
      await b().auth.signUp({ email, password: 'correct-horse' });
      await b().auth.signOut();
      await rejects(b().auth.signUp({ email: email.toUpperCase(), password: 'other-pass' }), 'EMAIL_TAKEN');
    });

    it('says the same for a wrong password and an unknown e-mail', async () => {
      await b().auth.signOut();
      const wrong = await rejects(
        b().auth.signIn({ email: someone()?.email ?? '', password: 'nope-nope' }),
        'INVALID_CREDENTIALS',
      );
      const unknown = await rejects(
        b().auth.signIn({ email: ctx.freshEmail('nobody'), password: 'nope-nope' }),
        'INVALID_CREDENTIALS',
      );
      expect(unknown.message).toBe(wrong.message);
      expect(await b().auth.session()).toBeNull();
    });

    it('signs out: no session, and data calls run as anonymous (refused)', async () => {
      await as(ctx.roles.signup);
      await b().auth.signOut();
      expect(await b().auth.session()).toBeNull();
      await rejects(b().data.list(options.sample.entity), 'FORBIDDEN');
    });

    it.runIf(options.controlsClock)(
      'expires sessions: event, then SESSION_EXPIRED, then signed out',
      async () => {
        const s = await as(ctx.roles.signup);
        const events: string[] = [];
        const off = b().auth.onChange((e) => events.push(e));
        const saved = ctx.clock.now;
        ctx.clock.now = s.expiresAt + 1;
        try {
          await rejects(b().data.list(options.sample.entity), 'SESSION_EXPIRED');
          expect(events).toEqual(['SESSION_EXPIRED']);
          expect(await b().auth.session()).toBeNull();
        } finally {
          ctx.clock.now = saved;
          off();
        }
      },
    );
  });
}
