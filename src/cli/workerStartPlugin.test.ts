import { describe, expect, it } from 'vitest';
import { workerStartScript } from './workerStartPlugin.ts';

/** Runs the inline script against stand-ins for the page's globals; returns the workers it started. */
function run(search: string) {
  const started: { url: string; options: unknown }[] = [];
  const window: { __ninefoldWorker?: unknown } = {};
  const marks: string[] = [];
  class Worker {
    constructor(url: string, options: unknown) {
      started.push({ url, options });
    }
  }
  new Function(
    'window',
    'location',
    'Worker',
    'performance',
    workerStartScript('/assets/backendWorker-1a2b.js', 'ninefold-app'),
  )(window, { search }, Worker, { mark: (m: string) => marks.push(m) });
  return { started, hasWorker: window.__ninefoldWorker instanceof Worker, marks };
}

describe('workerStartScript', () => {
  it('starts the backend worker as a held module worker (the entry releases it) and marks it', () => {
    expect(run('?bench')).toEqual({
      started: [
        { url: '/assets/backendWorker-1a2b.js', options: { type: 'module', name: 'ninefold-app (held)' } },
      ],
      hasWorker: true,
      marks: ['ninefold:worker-start'],
    });
  });

  it('starts nothing with ?memory (that page starts its own worker, on a throw-away database)', () => {
    expect(run('?memory&test')).toEqual({ started: [], hasWorker: false, marks: [] });
  });
});
