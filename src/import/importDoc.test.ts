import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import teamTasks from '../../examples/tasks/spec.ts';
import { mini } from '../doc/fixtures/mini.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
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
    // mini is a document fixture, not a valid app (`giveBack` is not a valid transition name),
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
