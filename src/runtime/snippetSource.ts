import type { AppModel } from '../model/appModel.ts';

export interface SnippetSource {
  /** The entity whose rows are reusable texts (a saved reply). */
  entity: string;
  /** Its field naming a row in the picker. */
  title: string;
  /** Its field holding the text inserted into the composer. */
  body: string;
}

/**
 * Where a composer's text can be taken from: another entity whose rows are texts to reuse — a
 * required long text under the same name as the composer's field (`savedReply.body` for
 * `comment.body`) and a title field naming each. The spec says it by naming the fields alike, so
 * no app wires a picker by hand (docs/decisions.md). Undefined when no entity fits.
 *
 * @example
 * snippetSource(resolve(helpdesk), 'comment', 'body'); // { entity: 'savedReply', title: 'title', body: 'body' }
 */
export function snippetSource(model: AppModel, entity: string, field: string): SnippetSource | undefined {
  for (const [name, { spec: e }] of model.tables) {
    if (name === entity || e.files || name === model.profile || !e.title || e.title === field) continue;
    const f = e.fields[field];
    if (f?.type === 'longtext' && f.required && e.fields[e.title]?.type === 'text')
      return { entity: name, title: e.title, body: field };
  }
  return undefined;
}
