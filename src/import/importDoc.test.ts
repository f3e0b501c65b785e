import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import teamTasks from '../../examples/tasks/spec.ts';
import { mini } from '../doc/fixtures/mini.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { rooms } from '../sql/fixtures/rooms.ts';
import { tasks } from './fixtures/tasks.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

/** The resolved app model without the raw specification it carries: what every printer reads. */
function model(spec: AppSpec): unknown {
  return JSON.parse(JSON.stringify({ ...resolve(spec), spec: undefined }));
}

const apps: [string, AppSpec][] = [
  ['helpdesk', helpdesk as AppSpec],
  ['expenses', expenses as AppSpec],
  ['tasks (reference app)', teamTasks as AppSpec],
  ['tasks (hand-written fixture)', tasks],
];

describe('importDoc: round trip', () => {
  it.each(apps)('%s: import(doc(spec)) is the same specification, valid, without problems', (_, spec) => {
    const r = importDoc(renderDoc(spec));
    expect(r.diagnostics).toEqual([]);
    expect(r.spec).not.toBeNull();
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(spec));
    // Same model: resolve() of both is identical (tables, columns, policies, transitions, errors…).
    expect(model(r.spec as AppSpec)).toEqual(model(spec));
  });

  it.each(apps)('%s: doc(import(md)) is stable after one pass', (_, spec) => {
    const md = renderDoc(spec);
    const once = importDoc(md).spec as AppSpec;
    expect(renderDoc(once)).toBe(md);
  });

  it('composite unique keys, points and lengths of time, whose turn a state is: all read back', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const task = spec.entities.task as AppSpec['entities'][string];
    task.unique = [{ fields: ['title', 'owner'], error: 'DUPLICATE_TASK' }];
    spec.errors.DUPLICATE_TASK = { message: 'You already have a task with this title.', severity: 'error' };
    spec.constants.reviewAfter = { type: 'duration', value: 'P3DT12H', label: 'Review after' };
    spec.constants.launch = { type: 'date', value: '2027-06-30', label: 'Launch day', unit: 'day' };
    spec.constants.cutoff = { type: 'datetime', value: '2027-06-30T18:00:00Z', label: 'Cut-off' };
    const doing = spec.states.task?.states.doing;
    if (doing) doing.waitingOn = 'assignee = me';
    const r = importDoc(renderDoc(spec));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(spec));
    expect(model(r.spec as AppSpec)).toEqual(model(spec));
  });

  it('enum and tags values with spaces, quotes, `|` and numbers, with and without labels, read back (issue 16)', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const task = spec.entities.task as AppSpec['entities'][string];
    task.fields.priority = {
      type: 'enum',
      values: [
        'on hold',
        "it's urgent",
        { value: 'say "now"', label: 'Say “now”' },
        { value: 'a | b', label: 'A or B' },
        45,
        { value: 25, label: '25 minutes' },
      ],
      required: true,
      default: 'on hold',
    };
    task.fields.labels = {
      type: 'tags',
      values: ["the client's", { value: 'big "room"', label: 'The big room', color: 'orange' }],
    };
    // The values in rules too: a quoted value in a row rule and a permission.
    spec.validation.task = [
      ...(spec.validation.task ?? []),
      {
        kind: 'row',
        rule: "priority != 'a | b' or labels contains 'big \"room\"'",
        error: 'DUE_IN_PAST',
      },
    ];
    const r = importDoc(renderDoc(spec));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(spec));
    expect(model(r.spec as AppSpec)).toEqual(model(spec));
    expect(renderDoc(r.spec as AppSpec)).toBe(renderDoc(spec));
  });

  it('the mini fixture (inheritance over two levels, notes, `|` and line breaks in text) reads back as written', () => {
    // mini is a document fixture, not a valid app (a required payload key nothing fills),
    // so compare what was read before validation.
    const r = importDoc(renderDoc(mini));
    expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(mini));
  });
});

describe('importDoc: a hand-written document in a looser style', () => {
  const loose = readFileSync(new URL('./fixtures/tasks-loose.md', import.meta.url), 'utf8');

  it('imports to the same specification as the tidy one (reordered and extra columns, ticks, prose)', () => {
    const r = importDoc(loose);
    expect(r.diagnostics).toEqual([]);
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(tasks));
  });

  it('is really loose: no numbered headings, other column orders, ticks, an HTML comment', () => {
    expect(loose).not.toMatch(/^## \d/m);
    expect(loose).toContain('| Route | Screen |');
    expect(loose).toContain('✓');
    expect(loose).toContain('| x |');
    expect(loose).toContain('(from Member)');
  });

  it('carries the HTML comment to the part of the specification it stands above', () => {
    const r = importDoc(loose);
    expect(r.comments.get('entities.task.fields.title')).toEqual([
      'Keep this list short: every field is a column in the database.',
    ]);
  });
});

describe('importDoc: problems', () => {
  it('reports an unknown field in a rule at its line, with a did-you-mean', () => {
    const md = renderDoc(helpdesk as AppSpec).replace('`requester = me`', '`requestor = me`');
    const r = importDoc(md);
    expect(r.spec).toBeNull();
    const d = r.diagnostics.find((x) => x.message.includes('requestor'));
    expect(d?.hint).toContain('requester');
    const line = md.split('\n')[(d?.at?.line ?? 0) - 1] ?? '';
    expect(line).toContain('`requestor = me`');
  });

  it('reports an unknown entity in a reference with the labels it knows', () => {
    const md = renderDoc(expenses as AppSpec).replace('reference to Claim;', 'reference to Claimm;');
    const r = importDoc(md);
    const d = r.diagnostics.find((x) => x.code === 'doc/unknown-name');
    expect(d?.message).toBe('unknown entity "Claimm"');
    expect(d?.hint).toBe('did you mean "Claim"?');
    expect(md.split('\n')[(d?.at?.line ?? 0) - 1]).toContain('Claimm');
  });

  it('reads a call’s fill back, and reports a fill that is not JSON, or names an unknown field, at the call', () => {
    const md = renderDoc(helpdesk as AppSpec);
    expect(importDoc(md).spec?.calls.declared.notifyRequester?.fill).toEqual(
      helpdesk.calls.declared.notifyRequester?.fill,
    );
    const broken = importDoc(md.replace('"to": "requester.email",', '"to": requester.email,'));
    expect(broken.spec).toBeNull();
    const d = broken.diagnostics.find((x) => x.path === 'calls.declared.notifyRequester.fill');
    expect(d?.code).toBe('doc/invalid-value');
    expect(d?.message).toContain('not JSON');
    const misspelt = importDoc(md.replace('"to": "requester.email",', '"to": "requester.emial",'));
    expect(misspelt.spec).toBeNull();
    const m = misspelt.diagnostics.find((x) => x.path === 'calls.declared.notifyRequester.fill.to');
    expect(m?.code).toBe('rule/unknown-name');
  });

  it('names a missing section', () => {
    const md = renderDoc(mini).replace('## 9. Constants and limits', '## Appendix');
    const r = importDoc(md);
    expect(r.diagnostics.map((d) => d.message)).toContain('section 9 (constants) is missing');
  });
});

describe('docs/nine-point-format.md', () => {
  it('shows the template `ninefold init --from blank` writes, verbatim', () => {
    const template = readFileSync(new URL('./templates/blank.md', import.meta.url), 'utf8');
    const doc = readFileSync(new URL('../../docs/nine-point-format.md', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`\`markdown\n${template}\`\`\`\``);
  });
});

describe('importDoc: the document loses nothing (issue 32)', () => {
  function roundTrip(spec: AppSpec): AppSpec {
    const md = renderDoc(spec);
    const r = importDoc(md);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(spec));
    expect(renderDoc(r.draft as AppSpec)).toBe(md);
    return r.draft as AppSpec;
  }

  it.each(['helpdesk', 'expenses', 'tasks'])('docs/%s.md imports and prints back byte for byte', (name) => {
    const md = readFileSync(new URL(`../../docs/${name}.md`, import.meta.url), 'utf8');
    const r = importDoc(md);
    expect(r.diagnostics).toEqual([]);
    const again = renderDoc(r.spec as AppSpec);
    expect(again.trimEnd()).toBe(md.trimEnd());
  });

  it('a transition’s further guards are printed one per line and read back, in order', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const finish = spec.states.task?.transitions.finish as AppSpec['states'][string]['transitions'][string];
    finish.guards = [
      { rule: 'dueOn is empty or dueOn >= today', error: 'DUE_IN_PAST' },
      { rule: "priority != 'high' or me is lead", error: 'TITLE_TOO_LONG' },
    ];
    const md = renderDoc(spec);
    expect(md).toContain('<br>then ');
    expect(roundTrip(spec).states.task?.transitions.finish?.guards).toEqual(finish.guards);
  });

  it('a field’s read rule is printed after its type and read back, beside a computed rule', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const fields = spec.entities.task?.fields as AppSpec['entities'][string]['fields'];
    fields.notes = {
      ...fields.notes,
      type: fields.notes?.type ?? 'longtext',
      read: 'owner = me or me is lead',
    };
    const md = renderDoc(spec);
    expect(md).toContain('; read only when `owner = me or me is lead`');
    expect(roundTrip(spec).entities.task?.fields.notes?.read).toBe('owner = me or me is lead');
  });

  it('"read only when" without a rule is an error at the cell, never dropped', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const fields = spec.entities.task?.fields as AppSpec['entities'][string]['fields'];
    fields.notes = { ...fields.notes, type: fields.notes?.type ?? 'longtext', read: 'me is lead' };
    const md = renderDoc(spec).replace('; read only when `me is lead`', '; read only when the lead');
    const r = importDoc(md);
    expect(r.spec).toBeNull();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'doc/missing', path: 'entities.task.fields.notes.read' }),
    ]);
  });

  it('a further guard without its own code is an error at the cell, never dropped', () => {
    const md = renderDoc(tasks).replace(
      '; otherwise `NOT_YOURS` |',
      '; otherwise `NOT_YOURS`<br>then `dueOn >= today` |',
    );
    const r = importDoc(md);
    expect(r.spec).toBeNull();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'doc/missing', path: 'states.task.transitions.finish.guards.0.error' }),
    ]);
    expect(r.diagnostics[0]?.at?.line).toBe(md.split('\n').findIndex((l) => l.includes('then `dueOn')) + 1);
  });

  it('"No two rows have the same X" makes X unique; with a code it is a one-field key; several need "together"', () => {
    const base = renderDoc(tasks);
    const withSentence = (s: string) =>
      base.replace('A row is shown by its Title.', `A row is shown by its Title. ${s}`);
    const plain = importDoc(withSentence('No two rows have the same Title.'));
    expect(plain.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(plain.spec?.entities.task?.fields.title?.unique).toBe(true);
    const keyed = importDoc(withSentence('No two rows have the same Title (error `TITLE_TOO_LONG`).'));
    expect(keyed.spec?.entities.task?.unique).toEqual([{ fields: ['title'], error: 'TITLE_TOO_LONG' }]);
    const both = importDoc(withSentence('No two rows have the same Title, Notes.'));
    expect(both.spec).toBeNull();
    expect(both.diagnostics[0]).toMatchObject({ code: 'doc/invalid-value', path: 'entities.task.unique' });
    expect(both.diagnostics[0]?.hint).toContain('together');
    const spec = structuredClone(tasks) as AppSpec;
    (spec.entities.task as AppSpec['entities'][string]).unique = [
      { fields: ['title'], error: 'TITLE_TOO_LONG' },
    ];
    roundTrip(spec);
  });

  it('a sentence under an entity that says nothing the importer knows is an error with a suggestion', () => {
    const md = renderDoc(tasks).replace(
      'A row is shown by its Title.',
      'A row is shown by its Title. Plurl: Tasks.',
    );
    const r = importDoc(md);
    expect(r.spec).toBeNull();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ code: 'doc/invalid-value', message: 'cannot read "Plurl: Tasks."' }),
    ]);
    expect(r.diagnostics[0]?.hint).toContain('Plural:');
  });

  it.each([
    ['must be at least 0, and at most 10000', { min: 0, max: 10000 }],
    ['must be at least 0 and at most 10000', { min: 0, max: 10000 }],
    ['must be at least 0, and must be at most 10000', { min: 0, max: 10000 }],
    ['must be at least 2, and at most {titleMax} characters long', { minLength: 2, maxLength: 'titleMax' }],
    [
      'must be at least 2 characters long, and match the pattern `^[A-Z]`',
      { minLength: 2, pattern: '^[A-Z]' },
    ],
  ])('field rule "Title %s" reads as its clauses', (words, expected) => {
    const md = renderDoc(tasks).replace(/\| Title must be at most [^|]*\|/, `| Title ${words}. |`);
    const r = importDoc(md);
    expect(r.draft?.validation.task?.[0]).toEqual({
      kind: 'field',
      field: 'title',
      ...expected,
      error: 'TITLE_TOO_LONG',
    });
  });

  it.each(['must be at least 0, or at most 5', 'must be at least zero', 'must be at most 5 apples'])(
    'field rule "Title %s" is an error, never a different rule',
    (words) => {
      const md = renderDoc(tasks).replace(/\| Title must be at most [^|]*\|/, `| Title ${words}. |`);
      const r = importDoc(md);
      expect(r.spec).toBeNull();
      expect(r.diagnostics[0]).toMatchObject({ code: 'doc/invalid-value', path: 'validation.task.0' });
    },
  );

  it('labels with Markdown characters (`*`, `_`, backticks, `<tag>`, `|`, `~`, `[ ]`) survive doc → import', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const t = spec.entities.task as AppSpec['entities'][string];
    t.label = 'Ta*sk* _x_';
    t.plural = 'Ta*sks* _x_';
    const labels = [
      'Ti*tle*',
      'No_tes_',
      'Pri `o` rity',
      'Ad<b>ded</b>',
      'As|signee',
      'St~~a~~tus',
      'Due [on]',
      'Done &amp; at',
    ];
    Object.values(t.fields).forEach((f, i) => {
      f.label = labels[i] ?? f.label;
    });
    for (const s of Object.values(spec.states.task?.states ?? {})) s.label = `S*${s.label ?? 'x'}*`;
    for (const s of Object.values(spec.states.task?.transitions ?? {})) s.label = `T_${s.label ?? 'x'}_`;
    for (const r of Object.values(spec.roles.roles)) r.label = `R*${r.label}* <i>`;
    roundTrip(spec);
  });

  it('camelCase states and transitions are valid names, and round-trip', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const st = spec.states.task as AppSpec['states'][string];
    st.states = { open: {}, inProgress: { label: 'In progress' }, done: { final: true } };
    st.transitions = {
      startWork: { from: ['open'], to: 'inProgress', roles: ['member'] },
      finishWork: {
        from: ['inProgress'],
        to: 'done',
        roles: ['member'],
        guard: 'assignee = me',
        guardError: 'NOT_YOURS',
      },
    };
    const md = renderDoc(spec);
    const r = importDoc(md);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.spec).not.toBeNull();
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(spec));
    expect(renderDoc(r.spec as AppSpec)).toBe(md);
  });

  it('two transitions whose SQL names are the same (`sendBack`, `send_back`) are refused', () => {
    const spec = structuredClone(tasks) as AppSpec;
    const st = spec.states.task as AppSpec['states'][string];
    st.transitions.sendBack = { from: ['doing'], to: 'open', roles: ['lead'] };
    st.transitions.send_back = { from: ['done'], to: 'open', roles: ['lead'] };
    const r = importDoc(renderDoc(spec));
    expect(r.spec).toBeNull();
    expect(r.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringContaining('the generated SQL name "task_send_back" is made by both'),
    );
  });

  it.each([
    [
      'a misspelt column header',
      '| Field | Label | Type | Required |',
      '| Field | Label | Type | Requird |',
      'doc/unknown-name',
    ],
    [
      'a yes/no cell that says neither',
      '| `title` | Title | text | yes |',
      '| `title` | Title | text | yse |',
      'doc/invalid-value',
    ],
    [
      'a note of a transition it does not know',
      '| asks for confirmation |',
      '| asks for confirmation; tell the lead |',
      'doc/invalid-value',
    ],
    [
      'an inherited grant misspelt',
      '| always (from Member) |',
      '| always (form Member) |',
      'doc/invalid-value',
    ],
    ['a remark in a type', 'emptied when the', 'epmtied when the', 'doc/invalid-value'],
    ['a status sentence', 'New tasks start as', 'Nwe tasks start as', 'doc/invalid-value'],
    [
      'a second copy of a section',
      '## 9. Constants and limits',
      '## 8. Errors\n\n## 9. Constants and limits',
      'doc/duplicate',
    ],
  ])('%s is an error at its line, never dropped', (_, from, to, code) => {
    const md = renderDoc(tasks);
    expect(md).toContain(from);
    const r = importDoc(md.replace(from, to));
    expect(r.spec).toBeNull();
    expect(r.diagnostics.map((d) => d.code)).toContain(code);
    for (const d of r.diagnostics) expect(d.at?.line).toBeGreaterThan(1);
  });
});

describe('importDoc: message parameters (issue 32 item 6)', () => {
  it('the Parameters column reads back, and prints back byte for byte', () => {
    const md = renderDoc(rooms);
    expect(md).toContain(
      '| `ROOM_TAKEN` | That room is taken from {start} to {end}. | error | Starts (Booking) | `start = other.starts`, `end = other.ends` |',
    );
    const r = importDoc(md);
    expect(r.diagnostics).toEqual([]);
    expect(normalizeSpec(r.spec as AppSpec)).toEqual(normalizeSpec(rooms as AppSpec));
    expect(renderDoc(r.spec as AppSpec)).toBe(md);
  });

  it('a parameter of another form is an error at its cell, never dropped', () => {
    const md = renderDoc(rooms).replace('`end = other.ends`', 'end from the other booking');
    const r = importDoc(md);
    const d = r.diagnostics.find((x) => x.severity === 'error');
    expect(d).toMatchObject({ code: 'doc/invalid-value', path: 'errors.ROOM_TAKEN.params' });
    expect(d?.message).toContain('end from the other booking');
    expect(md.split('\n')[(d?.at?.line ?? 0) - 1]).toContain('| `ROOM_TAKEN` |');
  });
});
