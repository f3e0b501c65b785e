/**
 * The backend's worker in a Chromium trace taken with `disabled-by-default-v8.cpu_profiler`
 * (`bench:start --trace f --trace-after ms`): V8's samples of each dedicated worker thread, as self
 * time per function, and the worker's busy spans. The worker's own timeline is not on the page's,
 * so this is how the database's open (PGlite's start: its files read, its WebAssembly run) is seen.
 */

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
}

export interface ProfiledEvent {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
}

/** Self time (ms) per function of one sampled thread, and when its samples ran (ms since `start`). */
export interface ThreadProfile {
  thread: string;
  self: Map<string, number>;
  busy: { from: number; to: number }[];
}

/** Each dedicated worker's samples in the trace, as self time per function and busy spans. */
export function workerProfiles(events: readonly ProfiledEvent[], start: number): ThreadProfile[] {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  const out: ThreadProfile[] = [];
  for (const head of events.filter((e) => e.name === 'Profile')) {
    const thread = names.get(`${head.pid}:${head.tid}`) ?? '';
    if (!thread.includes('Worker')) continue;
    out.push(profileOf(events, head, thread, start));
  }
  return out.filter((p) => p.self.size > 0);
}

function profileOf(
  events: readonly ProfiledEvent[],
  head: ProfiledEvent,
  thread: string,
  start: number,
): ThreadProfile {
  const nodes = new Map<number, ProfileNode>();
  const self = new Map<string, number>();
  const busy: { from: number; to: number }[] = [];
  let t = head.args?.data?.startTime ?? head.ts;
  for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.id === head.id)) {
    const data = chunk.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const samples = data?.cpuProfile?.samples ?? [];
    for (const [i, id] of samples.entries()) {
      const dt = data?.timeDeltas?.[i] ?? 0;
      t += dt;
      const frame = nodes.get(id)?.callFrame;
      if (frame?.functionName === '(idle)' || frame?.functionName === '(program)') continue;
      const name = frame ? label(frame) : '?';
      self.set(name, (self.get(name) ?? 0) + dt / 1000);
      const at = (t - start) / 1000;
      const last = busy[busy.length - 1];
      // Samples closer than 5 ms apart are one busy span.
      if (last && at - last.to < 5) last.to = at;
      else busy.push({ from: at, to: at });
    }
  }
  return { thread, self, busy };
}

/** `name file:line`; a WebAssembly function by its index (`wasm-function[N]`, no names shipped). */
const label = (f: ProfileNode['callFrame']) =>
  [f.functionName || '(anonymous)', f.url ? `${f.url.replace(/^.*\//, '')}:${(f.lineNumber ?? 0) + 1}` : '']
    .filter(Boolean)
    .join(' ');

/** Prints each worker's top functions by self time and its busy spans over 20 ms. */
export function printWorkerProfiles(profiles: readonly ThreadProfile[], top = 25): void {
  for (const p of profiles) {
    const total = [...p.self.values()].reduce((a, b) => a + b, 0);
    console.log(`\n${p.thread}: ${total.toFixed(0)} ms sampled; self time, ms`);
    for (const [k, ms] of [...p.self].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
    const spans = p.busy.filter((s) => s.to - s.from > 20);
    console.log(
      `  busy (ms since navigation): ${spans.map((s) => `${s.from.toFixed(0)}–${s.to.toFixed(0)}`).join(', ')}`,
    );
  }
}
