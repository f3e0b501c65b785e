import type { AppModel } from '../src/model/appModel.ts';

/** One state placed in the drawing: its box's centre and width. */
export interface PlacedState {
  name: string;
  label: string;
  initial: boolean;
  final: boolean;
  x: number;
  y: number;
  width: number;
}

/** One arrow: every transition between the same two states shares it (one label line each). */
export interface DiagramEdge {
  from: string;
  to: string;
  labels: string[];
}

/** One transition, as the table beside the drawing lists it. */
export interface DiagramTransition {
  name: string;
  label: string;
  from: string[];
  to: string;
  roles: string[];
}

/** One state machine, laid out: states in layers by their distance from the start, top to bottom. */
export interface StateDiagram {
  entity: string;
  entityLabel: string;
  states: PlacedState[];
  edges: DiagramEdge[];
  transitions: DiagramTransition[];
  width: number;
  height: number;
}

const BOX_HEIGHT = 30;
const LAYER_GAP = 130;
const STATE_GAP = 200;
const MARGIN = 24;
const CHAR_WIDTH = 7.5;

/**
 * The state diagram of every entity with states, from the resolved model: each state a box (the
 * start and final ones marked), each transition an arrow labelled with its name and the roles that
 * may run it. A layered layout (breadth first from the initial state), so no layout library: the
 * machines of a specification are small.
 *
 * @example
 * stateDiagrams(resolve(helpdesk))[0].edges[0]; // { from: 'new', to: 'open', labels: ['Take (Agent)'] }
 */
export function stateDiagrams(model: AppModel): StateDiagram[] {
  return [...model.machines.values()].map((machine) => {
    const transitions = model.transitions
      .filter((t) => t.entity === machine.entity)
      .map((t) => ({
        name: t.name,
        label: t.label,
        from: [...t.from],
        to: t.to,
        roles: t.roles.map((r) => model.roles.get(r)?.label ?? r),
      }));
    const starts = [machine.initial, ...machine.initialRules.map((r) => r.state)];
    const layers = layersOf([...machine.states.keys()], starts, transitions);
    const states = place(layers, (name) => {
      const node = machine.states.get(name);
      return {
        label: node?.label ?? name,
        initial: starts.includes(name),
        final: node?.final === true,
      };
    });
    const width = Math.max(...states.map((s) => s.x + s.width / 2), 0) + MARGIN;
    return {
      entity: machine.entity,
      entityLabel: model.tables.get(machine.entity)?.label ?? machine.entity,
      states,
      edges: edgesOf(transitions),
      transitions,
      width: Math.max(width, 200),
      height: layers.length * LAYER_GAP - LAYER_GAP + BOX_HEIGHT + 2 * MARGIN,
    };
  });
}

/** States by their distance from a start; those no transition reaches form a last layer. */
function layersOf(names: string[], starts: string[], transitions: DiagramTransition[]): string[][] {
  const depth = new Map<string, number>();
  let frontier = [...new Set(starts)].filter((s) => names.includes(s));
  for (const s of frontier) depth.set(s, 0);
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const t of transitions)
      if (t.from.some((f) => frontier.includes(f)) && !depth.has(t.to) && names.includes(t.to)) {
        depth.set(t.to, d);
        next.push(t.to);
      }
    frontier = next;
  }
  const deepest = Math.max(-1, ...depth.values());
  const layers: string[][] = [];
  for (const name of names) {
    const d = depth.get(name) ?? deepest + 1;
    const layer = layers[d] ?? [];
    layer.push(name);
    layers[d] = layer;
  }
  return layers.filter((l) => l !== undefined);
}

function place(
  layers: string[][],
  about: (name: string) => Pick<PlacedState, 'label' | 'initial' | 'final'>,
): PlacedState[] {
  const rows = layers.map((layer) =>
    layer.map((name) => {
      const a = about(name);
      return { name, ...a, width: Math.max(80, a.label.length * CHAR_WIDTH + 28) };
    }),
  );
  const rowWidth = (row: { width: number }[]) =>
    row.reduce((sum, s) => sum + s.width, 0) + STATE_GAP * (row.length - 1);
  const widest = Math.max(...rows.map(rowWidth));
  return rows.flatMap((row, i) => {
    let x = MARGIN + (widest - rowWidth(row)) / 2;
    return row.map((s) => {
      const placed = { ...s, x: x + s.width / 2, y: MARGIN + BOX_HEIGHT / 2 + i * LAYER_GAP };
      x += s.width + STATE_GAP;
      return placed;
    });
  });
}

function edgesOf(transitions: DiagramTransition[]): DiagramEdge[] {
  const edges = new Map<string, DiagramEdge>();
  for (const t of transitions)
    for (const from of t.from) {
      const key = `${from}\u0000${t.to}`;
      const edge = edges.get(key) ?? { from, to: t.to, labels: [] };
      edge.labels.push(t.roles.length > 0 ? `${t.label} (${t.roles.join(', ')})` : t.label);
      edges.set(key, edge);
    }
  return [...edges.values()];
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The words the drawing uses that are not the model's: the start and final marks. */
export interface DiagramWords {
  title: string;
  summary: string;
  start: string;
  final: string;
}

/**
 * The diagram as SVG markup (an image with its title and a summary for screen readers; the
 * transitions table beside it says everything the arrows do). Colours are the page's variables,
 * so it follows light and dark.
 */
export function stateDiagramSvg(d: StateDiagram, id: string, words: DiagramWords): string {
  const at = new Map(d.states.map((s) => [s.name, s]));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-diagram" role="img" aria-labelledby="${id}-t ${id}-d" viewBox="0 0 ${Math.ceil(d.width + 120)} ${Math.ceil(d.height)}" width="${Math.ceil(d.width + 120)}">`,
    `<title id="${id}-t">${xml(words.title)}</title><desc id="${id}-d">${xml(words.summary)}</desc>`,
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="var(--fg)"/></marker></defs>`,
  ];
  for (const e of d.edges) {
    const from = at.get(e.from);
    const to = at.get(e.to);
    if (from && to) parts.push(edgeSvg(from, to, e.labels, id));
  }
  for (const s of d.states) parts.push(stateSvg(s, words));
  parts.push('</svg>');
  return parts.join('');
}

function stateSvg(s: PlacedState, words: DiagramWords): string {
  const x = s.x - s.width / 2;
  const y = s.y - BOX_HEIGHT / 2;
  const mark = s.initial ? words.start : s.final ? words.final : '';
  return [
    `<g class="state${s.initial ? ' initial' : ''}${s.final ? ' final' : ''}">`,
    `<rect x="${x}" y="${y}" width="${s.width}" height="${BOX_HEIGHT}" rx="${s.final ? 4 : 14}" fill="var(--panel)" stroke="var(--fg)" stroke-width="${s.initial || s.final ? 2.5 : 1}"/>`,
    `<text x="${s.x}" y="${s.y + 5}" text-anchor="middle" fill="var(--fg)">${xml(s.label)}</text>`,
    mark ? `<text x="${x}" y="${y - 4}" font-size="11" fill="var(--fg)">${xml(mark)}</text>` : '',
    '</g>',
  ].join('');
}

function edgeSvg(from: PlacedState, to: PlacedState, labels: string[], id: string): string {
  const marker = `marker-end="url(#${id}-arrow)"`;
  const text = (x: number, y: number, anchor: string) =>
    labels
      .map(
        (l, i) =>
          `<text x="${x}" y="${y + i * 14}" text-anchor="${anchor}" font-size="12" fill="var(--fg)" stroke="var(--bg)" stroke-width="3" paint-order="stroke">${xml(l)}</text>`,
      )
      .join('');
  if (from === to) {
    const x = from.x + from.width / 2;
    const path = `M${x},${from.y - 8} C${x + 40},${from.y - 30} ${x + 40},${from.y + 30} ${x},${from.y + 8}`;
    return `<path d="${path}" fill="none" stroke="var(--fg)" ${marker}/>${text(x + 36, from.y + 4, 'start')}`;
  }
  const down = to.y > from.y;
  const sameRow = to.y === from.y;
  const y1 = sameRow ? from.y - BOX_HEIGHT / 2 : from.y + (down ? 1 : -1) * (BOX_HEIGHT / 2);
  const y2 = sameRow ? to.y - BOX_HEIGHT / 2 : to.y + (down ? -1 : 1) * (BOX_HEIGHT / 2);
  // An arrow going back up (or sideways) bends to the side, so it does not cover the one going down.
  const bend = down || sameRow ? 0 : 60;
  const cx = (from.x + to.x) / 2 + bend;
  const cy = sameRow ? from.y - BOX_HEIGHT - 30 : (y1 + y2) / 2;
  const path = `M${from.x + (down ? 0 : 10)},${y1} Q${cx},${cy} ${to.x + (down ? 0 : 10)},${y2}`;
  const lx = (from.x + to.x) / 2 + bend / 2 + 6;
  const ly = sameRow ? cy + 10 : (y1 + y2) / 2 - ((labels.length - 1) * 14) / 2;
  return `<path d="${path}" fill="none" stroke="var(--fg)" ${marker}/>${text(lx, ly, 'start')}`;
}
