import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic as CmDiagnostic, linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { nameCompletion, specNames } from './completion.ts';
import { type Diagnosis, diagnose } from './diagnose.ts';

/**
 * The page's colours (studio.css: light and dark, each checked for contrast), not CodeMirror's
 * light-only defaults: Markdown's marks muted, code spans (keys and rules) in the accent colour.
 */
const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--panel)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active)', color: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--selection)',
  },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line)' },
});
const markdownColours = HighlightStyle.define([
  { tag: tags.heading, fontWeight: 'bold' },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.monospace, color: 'var(--accent)' },
  { tag: [tags.link, tags.url], color: 'var(--accent)', textDecoration: 'underline' },
  {
    tag: [tags.processingInstruction, tags.meta, tags.comment, tags.contentSeparator],
    color: 'var(--muted)',
  },
]);

/** How long the editor waits after a keystroke before it checks the document again. */
export const LINT_DELAY_MS = 25;

/**
 * The document's editor (CodeMirror 6): Markdown, `check`'s diagnostics inline at their line and
 * column, each "did you mean" a quick fix (the lint panel's action, Ctrl+Shift+M opens it, or the
 * tooltip's button); completion of the specification's names in code spans. `onDiagnosis` hears every check, with the time it took.
 */
export function createEditor(
  parent: HTMLElement,
  text: string,
  onDiagnosis: (d: Diagnosis, text: string, ms: number) => void,
  onSave: () => void,
): EditorView {
  /** The names completion offers: the last specification without errors (kept while there are some). */
  let names: ReturnType<typeof specNames> = [];
  const check = linter(
    (view) => {
      const started = performance.now();
      const source = view.state.doc.toString();
      const diagnosis = diagnose(source);
      if (diagnosis.spec) names = specNames(diagnosis.spec);
      onDiagnosis(diagnosis, source, performance.now() - started);
      return diagnosis.diagnostics.map((d): CmDiagnostic => {
        const fix = d.fix;
        return {
          from: d.from,
          to: d.to,
          severity: d.severity,
          source: d.code,
          message: d.message,
          ...(fix
            ? {
                actions: [
                  {
                    name: fix.label,
                    apply: (v: EditorView, from: number, to: number) =>
                      v.dispatch({ changes: { from, to, insert: fix.insert } }),
                  },
                ],
              }
            : {}),
        };
      });
    },
    { delay: LINT_DELAY_MS },
  );
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        markdown(),
        syntaxHighlighting(markdownColours),
        theme,
        lintGutter(),
        check,
        autocompletion({ override: [nameCompletion(() => names)] }),
        keymap.of([
          ...completionKeymap,
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              onSave();
              return true;
            },
          },
          ...defaultKeymap,
          ...historyKeymap,
          ...lintKeymap,
          indentWithTab,
        ]),
        // A tab stop axe can see (a contenteditable alone is not one to it), inside the scrolled region.
        EditorView.contentAttributes.of({ 'aria-labelledby': 'editor-label', tabindex: '0' }),
      ],
    }),
  });
}
