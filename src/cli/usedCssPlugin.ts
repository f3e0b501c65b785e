import postcss from 'postcss';
import type { Plugin } from 'vite';

/** Mantine's class names: `m_` and eight hex digits, the same in its CSS and in its components' JS. */
const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;

/** Mantine's style sheets (core, dates, notifications …), as the app imports them (app/main.tsx). */
const MANTINE_CSS = /[\\/]@mantine[\\/][^\\/]+[\\/]styles(?:[\\/][^\\/]+)?\.css$/;

/**
 * The Mantine class names a build's JavaScript names: a component the bundle keeps carries its
 * `classes` object (`{ root: 'm_…' }`), one it dropped carries nothing.
 *
 * @example
 * mantineClassesIn(['var classes = { root: "m_89ab340" };']); // Set { 'm_89ab340' }
 */
export function mantineClassesIn(code: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const text of code) for (const m of text.matchAll(MANTINE_CLASS)) out.add(m[0]);
  return out;
}

/**
 * `css` without the rules that only style Mantine classes no JavaScript of the build names: a
 * selector naming such a class matches nothing in the app. Selectors without Mantine classes
 * (the theme's variables, the baseline, a keyframe's `from` and `to`) stay, and so does every rule of a selector list
 * with one live selector.
 *
 * @example
 * dropUnusedRules('.m_11111111{a:b}.m_22222222{c:d}', new Set(['m_11111111'])); // '.m_11111111{a:b}'
 */
export function dropUnusedRules(css: string, used: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const live = rule.selectors.filter((s) => [...s.matchAll(MANTINE_CLASS)].every((m) => used.has(m[0])));
    if (live.length === 0) rule.remove();
    else if (live.length < rule.selectors.length) rule.selectors = live;
  });
  // An @media or @layer block whose rules all went goes too.
  root.walkAtRules((at) => {
    if (at.nodes !== undefined && at.nodes.length === 0) at.remove();
  });
  return root.toString();
}

/**
 * A build's second pass: Mantine's style sheets keep only the rules of the components the first
 * pass's JavaScript uses (its full sheets are 277 KB, a third of it for components the app never
 * draws). Filtered as they are loaded, before Vite hashes the CSS, so the file's name still
 * changes with its content. The first pass is unminified, so it names at least the classes the
 * second does. Every page pays for the whole sheet: parsed before the first paint and matched on
 * every style change (docs/performance.md, "Where a return visit's time goes").
 *
 * @example
 * plugins: [ninefoldUsedCssPlugin(mantineClassesIn(trialChunks.map((c) => c.code)))]
 */
export function ninefoldUsedCssPlugin(used: ReadonlySet<string>): Plugin {
  return {
    name: 'ninefold-used-css',
    enforce: 'pre',
    transform(code, id) {
      if (!MANTINE_CSS.test(id.split('?')[0] ?? id)) return null;
      return { code: dropUnusedRules(code, used), map: null };
    },
  };
}
