import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.ts';
import { specTexts } from '../spec/specTexts.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkSpec } from './checkSpec.ts';
import { miniSpec } from './fixtures/miniSpec.ts';
import { teamSpec } from './fixtures/teamSpec.ts';
import { LINTS, lintSpec } from './lintSpec.ts';
import { auditedWithoutHistory } from './lints/auditedWithoutHistory.ts';
import { callRoleGaps } from './lints/callRoleGaps.ts';
import { deadEndStates } from './lints/deadEndStates.ts';
import { deadTransitions } from './lints/deadTransitions.ts';
import { entitiesNotShown } from './lints/entitiesNotShown.ts';
import { guardCountsHiddenRows } from './lints/guardCountsHiddenRows.ts';
import { idleRoles } from './lints/idleRoles.ts';
import { routeParams } from './lints/routeParams.ts';
import { translations } from './lints/translations.ts';
import { undefinedErrors } from './lints/undefinedErrors.ts';
import { undefinedStates } from './lints/undefinedStates.ts';
import { uniqueOnHiddenRows } from './lints/uniqueOnHiddenRows.ts';
import { unknownPlaceholders } from './lints/unknownPlaceholders.ts';
import { unreachableStates } from './lints/unreachableStates.ts';
import { unusedConstants } from './lints/unusedConstants.ts';
import { unusedErrors } from './lints/unusedErrors.ts';
import { updateWithoutRead } from './lints/updateWithoutRead.ts';

type Lint = (spec: AppSpec) => Diagnostic[];

/** Each lint with one small breakage that must trigger it, and the finding expected. */
const cases: [string, Lint, (s: AppSpec) => void, Partial<Diagnostic>][] = [
  [
    'undefined states',
    undefinedStates,
    (s) => (s.states.ticket!.transitions.close!.to = 'clsoed'),
    {
      code: 'lint/undefined-state',
      severity: 'error',
      path: 'states.ticket.transitions.close.to',
      hint: 'did you mean "closed"?',
    },
  ],
  [
    'unreachable states',
    unreachableStates,
    (s) => (s.states.ticket!.states.archived = { final: true }),
    { code: 'lint/unreachable-state', severity: 'warning', path: 'states.ticket.states.archived' },
  ],
  [
    'dead-end states',
    deadEndStates,
    (s) => delete s.states.ticket!.states.closed!.final,
    { code: 'lint/dead-end-state', severity: 'warning', path: 'states.ticket.states.closed' },
  ],
  [
    'transitions from unreachable states',
    deadTransitions,
    (s) => {
      s.states.ticket!.states.archived = {};
      s.states.ticket!.transitions.restore = { from: ['archived'], to: 'open', roles: ['agent'] };
    },
    { code: 'lint/dead-transition', severity: 'warning', path: 'states.ticket.transitions.restore' },
  ],
  [
    'transitions no existing role may run',
    deadTransitions,
    (s) => (s.states.ticket!.transitions.close!.roles = ['ghost']),
    {
      code: 'lint/dead-transition',
      path: 'states.ticket.transitions.close',
      message: expect.stringContaining('none of its roles exists'),
    },
  ],
  [
    'transitions whose roles cannot read the rows',
    deadTransitions,
    (s) => {
      s.roles.roles.guest = { label: 'Guest' };
      s.states.ticket!.transitions.close!.roles = ['guest'];
    },
    {
      code: 'lint/dead-transition',
      path: 'states.ticket.transitions.close',
      message: expect.stringContaining('read'),
    },
  ],
  [
    'idle roles',
    idleRoles,
    (s) => (s.roles.roles.auditor = { label: 'Auditor' }),
    { code: 'lint/idle-role', severity: 'warning', path: 'roles.roles.auditor' },
  ],
  [
    'transitions whose roles may not make their call (finding 11: the transition refuses them)',
    callRoleGaps,
    (s) => {
      s.calls.declared.notify = {
        description: 'Tell the requester',
        method: 'POST',
        path: '/notify',
        service: 'notify',
        payload: { ticketId: 'uuid' },
        response: {},
        roles: ['admin'],
        error: 'NOT_ASSIGNEE',
      };
      s.states.ticket!.transitions.solve!.calls = ['notify'];
    },
    {
      code: 'lint/call-role-gap',
      severity: 'warning',
      path: 'states.ticket.transitions.solve.calls[0]',
      message: expect.stringContaining('"agent" may run ticket.solve but not make its call "notify"'),
    },
  ],
  [
    'route params',
    routeParams,
    (s) => (s.screens.tickets!.route = '/tickets/:ticketId'),
    {
      code: 'lint/route-param',
      severity: 'error',
      path: 'screens.tickets.route',
      message: expect.stringContaining(':ticketId'),
    },
  ],
  [
    'entities no screen shows',
    entitiesNotShown,
    (s) => (s.screens.ticket!.related = []),
    { code: 'lint/entity-not-shown', severity: 'warning', path: 'entities.comment' },
  ],
  [
    'undefined error codes',
    undefinedErrors,
    (s) => delete s.errors.NOT_ASSIGNEE,
    { code: 'lint/undefined-error', severity: 'error', path: 'states.ticket.transitions.solve.guardError' },
  ],
  [
    'unused error codes',
    unusedErrors,
    (s) => (s.errors.NEVER = { message: 'never', severity: 'error' }),
    { code: 'lint/unused-error', severity: 'warning', path: 'errors.NEVER' },
  ],
  [
    'unused constants',
    unusedConstants,
    (s) => (s.constants.maxFiles = { value: 3, label: 'Most files' }),
    { code: 'lint/unused-constant', severity: 'warning', path: 'constants.maxFiles' },
  ],
  [
    'unknown placeholders',
    unknownPlaceholders,
    (s) => (s.errors.TITLE_TOO_LONG!.message = 'At most {maxTitleLenght} characters.'),
    {
      code: 'lint/unknown-placeholder',
      severity: 'error',
      path: 'errors.TITLE_TOO_LONG.message',
      hint: 'did you mean "maxTitleLength"?',
    },
  ],
  [
    'updates without read',
    updateWithoutRead,
    (s) => (s.roles.permissions.customer!.comment = { update: { when: true, fields: ['body'] } }),
    {
      code: 'lint/update-without-read',
      severity: 'warning',
      path: 'roles.permissions.customer.comment.update',
    },
  ],
  [
    // Issue 11, finding 7: customers create tickets but read only their own.
    'finding 7: unique fields on entities whose reads are restricted',
    uniqueOnHiddenRows,
    (s) => (s.entities.ticket!.fields.title!.unique = true),
    {
      code: 'lint/unique-on-hidden-rows',
      severity: 'warning',
      path: 'entities.ticket.fields.title.unique',
      message: expect.stringContaining('"customer"'),
    },
  ],
  [
    // Issue 11, finding 7: guards read every row; customers read only their own tickets.
    'finding 7: guards counting rows a runner cannot all read',
    guardCountsHiddenRows,
    (s) =>
      (s.states.ticket!.transitions.reopen!.guard =
        'solvedAt > now - days(reopenWindowDays) and count(ticket where status = open) < 10'),
    {
      code: 'lint/guard-counts-hidden-rows',
      severity: 'warning',
      path: 'states.ticket.transitions.reopen.guard',
      message: expect.stringContaining('"customer"'),
    },
  ],
  [
    'audited fields no history can record',
    auditedWithoutHistory,
    // Comments have no states; their body is no reference to the ticket whose history would show it.
    (s) => (s.entities.comment!.fields.body!.audited = true),
    {
      code: 'lint/audited-without-history',
      severity: 'warning',
      path: 'entities.comment.fields.body.audited',
    },
  ],
  [
    'translations of no text',
    translations,
    // Every text translated (identity will do), plus one key that is no text.
    (s) =>
      (s.translations = {
        de: { ...Object.fromEntries(specTexts(s).map((t) => [t.text, t.text])), Titel: 'Titel' },
      }),
    { code: 'lint/unknown-translation', severity: 'warning', path: 'translations.de.Titel' },
  ],
];

describe('lints', () => {
  it('are all quiet on a clean specification', () => {
    expect(lintSpec(miniSpec())).toEqual([]);
    expect(checkSpec(miniSpec()).diagnostics).toEqual([]);
  });

  it('cover every lint in lintSpec', () => {
    expect(new Set(cases.map((c) => c[1]))).toEqual(new Set(LINTS));
  });

  for (const [name, lint, breakIt, expected] of cases) {
    it(`find ${name}`, () => {
      const spec = miniSpec();
      expect(lint(spec)).toEqual([]);
      breakIt(spec);
      expect(lint(spec)).toEqual([expect.objectContaining(expected)]);
    });
  }

  it('consider inheritance for idle roles and update-without-read', () => {
    const spec = miniSpec();
    spec.roles.roles.admin = { label: 'Admin', inherits: ['agent'] };
    spec.roles.permissions.admin = { comment: { update: { when: true, fields: ['body'] } } };
    expect(idleRoles(spec)).toEqual([]);
    expect(updateWithoutRead(spec)).toEqual([]);
  });

  it('update-without-read knows what a relationship role reads', () => {
    const spec = teamSpec();
    // projectLead reads the projects it leads (the rows that make one hold it); teamOwner is a
    // teamMember wherever it is one (owner is among teamMember's values), which reads projects.
    // A lead who is in no team still cannot read the tasks they may update: that stays.
    expect(updateWithoutRead(spec).map((d) => d.path)).toEqual(['roles.permissions.projectLead.task.update']);
    // Narrow teamMember to plain members: an owner no longer comes with it.
    const narrow = teamSpec();
    const through = narrow.roles.roles.teamMember?.through;
    if (through) through.values = ['member'];
    expect(updateWithoutRead(narrow).map((d) => d.path)).toContain(
      'roles.permissions.teamOwner.project.update',
    );
  });

  it('do not report catalogue messages for codes the database raises itself', () => {
    const spec = miniSpec();
    spec.errors.CONFLICT = { message: 'Someone else changed this; reload.', severity: 'error' };
    expect(unusedErrors(spec)).toEqual([]);
  });

  it('count constants used only in message placeholders or limits', () => {
    const spec = miniSpec();
    spec.constants.maxFiles = { value: 3, label: 'Most files' };
    spec.errors.NOT_ASSIGNEE!.message = 'Only {maxFiles}';
    expect(unusedConstants(spec)).toEqual([]);
  });

  it('count constants used only in a declared call’s fill (a value, a template’s placeholder, rows)', () => {
    const spec = miniSpec();
    spec.constants.sender = { value: 'desk@example.com', label: 'Sender' };
    spec.constants.brand = { value: 'Desk', label: 'Brand' };
    spec.constants.lineCap = { value: 5, label: 'Line cap' };
    spec.constants.unused = { value: 1, label: 'Unused' };
    spec.calls.declared.notify = {
      description: 'Mails the requester.',
      service: 'mailer',
      method: 'POST',
      path: '/notify',
      error: 'NOT_ASSIGNEE',
      payload: { from: 'string', subject: 'string', comments: [{ body: 'string', cap: 'number' }] },
      response: {},
      roles: ['agent'],
      fill: {
        from: 'sender',
        subject: '{brand}: {title}',
        comments: { rows: 'comment', fill: { cap: 'lineCap' } },
      },
    };
    spec.states.ticket!.transitions.solve!.calls = ['notify'];
    expect(unusedConstants(spec).map((d) => d.path)).toEqual(['constants.unused']);
  });

  it('do not count a field that shadows a constant as a use of the constant', () => {
    const spec = miniSpec();
    spec.constants.solvedAt = { value: 1, label: 'Shadowed' };
    expect(unusedConstants(spec).map((d) => d.path)).toEqual(['constants.solvedAt']);
  });

  it('run through checkSpec only on valid specifications', () => {
    const spec = miniSpec();
    spec.states.ticket!.states.archived = {};
    spec.entities.ticket!.fields.select = { type: 'text' };
    expect(checkSpec(spec).diagnostics.map((d) => d.code)).toEqual(['spec/invalid-name']);
    delete spec.entities.ticket!.fields.select;
    const r = checkSpec(spec);
    expect(r.spec).not.toBeNull();
    expect(r.diagnostics.map((d) => d.code)).toEqual(['lint/unreachable-state', 'lint/dead-end-state']);
  });
});
