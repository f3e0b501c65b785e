import { describe, expect, it } from 'vitest';
import helpdesk from '../examples/helpdesk/spec.ts';
import { resolve } from '../src/model/resolve.ts';
import { stateDiagramSvg, stateDiagrams } from './stateDiagram.ts';

const model = resolve(helpdesk);
const words = { title: 'States of Ticket', summary: 'summary', start: 'start', final: 'final' };

describe('stateDiagrams', () => {
  const [ticket] = stateDiagrams(model);

  it('draws one diagram per state machine, every state once, the initial one on top', () => {
    expect(stateDiagrams(model).map((d) => d.entity)).toEqual([...model.machines.keys()]);
    const machine = model.machines.get(ticket?.entity ?? '');
    expect(ticket?.states.map((s) => s.name).sort()).toEqual([...(machine?.states.keys() ?? [])].sort());
    const initial = ticket?.states.find((s) => s.name === machine?.initial);
    expect(initial?.initial).toBe(true);
    expect(Math.min(...(ticket?.states.map((s) => s.y) ?? []))).toBe(initial?.y);
  });

  it('labels each arrow with every transition between the two states and its roles', () => {
    const transitions = model.transitions.filter((t) => t.entity === ticket?.entity);
    const arrows = ticket?.edges.flatMap((e) => e.labels.map((l) => `${e.from}>${e.to}:${l}`)) ?? [];
    expect(arrows.length).toBe(transitions.reduce((n, t) => n + t.from.length, 0));
    const take = transitions.find((t) => t.name === 'take');
    const roles = take?.roles.map((r) => model.roles.get(r)?.label).join(', ');
    expect(arrows).toContain(`${take?.from[0]}>${take?.to}:${take?.label} (${roles})`);
  });

  it('keeps states of a layer apart', () => {
    for (const a of ticket?.states ?? [])
      for (const b of ticket?.states ?? [])
        if (a !== b && a.y === b.y)
          expect(Math.abs(a.x - b.x)).toBeGreaterThanOrEqual((a.width + b.width) / 2);
  });
});

describe('stateDiagramSvg', () => {
  it('is an image with a title and summary, its texts escaped', () => {
    const [ticket] = stateDiagrams(model);
    if (!ticket) throw new Error('helpdesk has a state machine');
    const odd = {
      ...ticket,
      states: ticket.states.map((s, i) => (i === 0 ? { ...s, label: 'A <b> & "c"' } : s)),
    };
    const svg = stateDiagramSvg(odd, 'sd0', { ...words, title: 'T & <x>' });
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="sd0-t sd0-d"/);
    expect(svg).toContain('<title id="sd0-t">T &amp; &lt;x&gt;</title>');
    expect(svg).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).not.toContain('<b>');
    expect(svg.match(/<path d=/g)?.length).toBe(ticket.edges.length + 1);
  });
});
