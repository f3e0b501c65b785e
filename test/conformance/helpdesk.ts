import { describe, expect, it } from 'vitest';
import type { ConformanceContext, ConformanceSample } from './context.ts';

/** The helpdesk's ticket: a valid one needs a title and a description of some length. */
export const helpdeskSample: ConformanceSample = {
  entity: 'ticket',
  field: 'title',
  values: { description: 'The invoice PDF will not download from the billing page since Monday.' },
};

/** The helpdesk's own rules on the generic suite's backend: its codes, guards, file limits, calls. */
export const helpdeskScenarios = [rulesAndTransitions, filesAndCalls];

function rulesAndTransitions(ctx: ConformanceContext): void {
  const { rejects, as } = ctx;
  const b = () => ctx.b();
  describe('helpdesk: rules and transitions', () => {
    it('fills defaults and maps validation rules to their catalogue codes and fields', async () => {
      await as('customer');
      expect(await ctx.create('Defaults here')).toMatchObject({ status: 'new', priority: 'normal' });
      const e = await rejects(ctx.create('abc'), 'TITLE_TOO_SHORT');
      expect(e.field).toBe('ticket.title');
    });

    it('runs allowed transitions, refuses the rest with catalogue codes, records history', async () => {
      await as('customer');
      const t = await ctx.create('Cannot log in anymore');
      await rejects(b().data.transition('ticket', t.id, 'take'), 'FORBIDDEN');
      await as('agent');
      const agent = (await b().auth.session())?.user.id;
      const taken = await b().data.transition('ticket', t.id, 'take', {}, 1);
      expect(taken).toMatchObject({ status: 'open', assignee: agent, version: 2 });
      await rejects(b().data.transition('ticket', t.id, 'take'), 'INVALID_TRANSITION');
      await rejects(b().data.transition('ticket', t.id, 'ask_customer', {}, 1), 'CONFLICT');
      const missing = await rejects(b().data.transition('ticket', t.id, 'solve', {}), 'INPUT_REQUIRED');
      expect(missing.field).toBe('ticket.resolution');
      await rejects(b().data.transition('ticket', t.id, 'fly'), 'INVALID_TRANSITION');
      const resolution = 'Reset the password for you.';
      const solved = await b().data.transition('ticket', t.id, 'solve', { resolution });
      expect(solved).toMatchObject({ status: 'solved', resolution });
      const history = await b().data.history('ticket', t.id);
      expect(history.map((h) => [h.transition, h.fromState, h.toState])).toEqual([
        ['take', 'new', 'open'],
        ['solve', 'open', 'solved'],
      ]);
      expect(history[1]?.input).toEqual({ resolution });
      expect(history[0]?.actor).toBe(agent);
      await as('customer');
      expect((await b().data.history('ticket', t.id)).length).toBe(2);
    });

    it('refuses a guard with its own code', async () => {
      await as('customer');
      const t = await ctx.create('Guarded ticket here');
      await as('admin');
      await b().data.transition('ticket', t.id, 'take');
      await as('agent');
      await rejects(b().data.transition('ticket', t.id, 'ask_customer'), 'NOT_ASSIGNEE');
    });
  });
}

function filesAndCalls(ctx: ConformanceContext): void {
  const { rejects, as } = ctx;
  const b = () => ctx.b();
  const constant = (name: string) => Number(ctx.model.constants.get(name)?.value);
  describe('helpdesk: files and declared calls', () => {
    it('uploads within limits, downloads the same bytes, refuses over the limits', async () => {
      await as('customer');
      const t = await ctx.create('Screenshot attached');
      const bytes = new TextEncoder().encode('%PDF-1.4 hello');
      const upload = (name: string, type: string, data: Uint8Array) =>
        b().files.upload('attachment', { values: { ticket: t.id }, name, type, bytes: data });
      const f = await upload('invoice.pdf', 'application/pdf', bytes);
      expect(f).toMatchObject({
        name: 'invoice.pdf',
        type: 'application/pdf',
        size: bytes.byteLength,
        ticket: t.id,
      });
      const got = await b().files.download('attachment', f.id);
      expect([got.name, got.type, [...got.bytes]]).toEqual(['invoice.pdf', 'application/pdf', [...bytes]]);
      const big = new Uint8Array(constant('maxAttachmentMb') * 1048576 + 1);
      await rejects(upload('big.bin', '', big), 'ATTACHMENT_TOO_LARGE');
      for (let i = 1; i < constant('maxAttachmentsPerTicket'); i++)
        await upload(`f${i}.txt`, 'text/plain', bytes);
      await rejects(upload('one-too-many.txt', 'text/plain', bytes), 'TOO_MANY_ATTACHMENTS');
      await b().files.remove('attachment', f.id);
      await rejects(b().files.download('attachment', f.id), 'NOT_FOUND');
      await rejects(b().files.download('ticket', t.id), 'INVALID_INPUT');
    });

    it('checks the payload shape, and refuses a call a transition sends (finding 11: only its transition queues it)', async () => {
      const good = {
        ticketId: '0b7e8a4e-8a3c-4d5e-9f00-1234567890ab',
        to: 'ana@example.com',
        subject: 'Solved',
        body: 'We reset your password.',
      };
      await as('agent');
      // `notifyRequester` is the `solve` transition's call: a client cannot send it for a ticket never solved.
      const direct = await rejects(b().calls.invoke('notifyRequester', good), 'FORBIDDEN');
      expect(direct.params).toMatchObject({ reason: 'sent-by-transition', transitions: ['ticket.solve'] });
      const bad = await rejects(
        b().calls.invoke('notifyRequester', { ...good, to: 'not-an-email' }),
        'INVALID_INPUT',
      );
      expect(bad.params).toMatchObject({ issues: [{ path: 'to', problem: 'type', expected: 'email' }] });
      await rejects(b().calls.invoke('notifyRequester', { ticketId: good.ticketId }), 'INVALID_INPUT');
      await as('customer');
      await rejects(b().calls.invoke('notifyRequester', good), 'FORBIDDEN');
    });
  });
}
