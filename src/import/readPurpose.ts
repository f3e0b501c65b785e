import type { RootContent } from 'mdast';
import type { AppSpec } from '../spec/types.ts';
import type { ImportContext } from './importContext.ts';
import { posOf, rawRange, textOf } from './markdownTree.ts';

/**
 * Section 1: the summary (every paragraph up to "Who uses it") and the users (the list after it;
 * without the marker, the first list).
 */
export function readPurpose(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const marker = body.findIndex((n) => n.type === 'paragraph' && /^who uses it\b/i.test(textOf(n)));
  const listAt = body.findIndex((n, i) => n.type === 'list' && (marker < 0 || i > marker));
  const end = marker >= 0 ? marker : listAt >= 0 ? listAt : body.length;
  const summary = body.slice(0, end).filter((n) => n.type !== 'html' && n.type !== 'thematicBreak');
  spec.purpose.summary = rawRange(summary, ctx.source);
  ctx.at('purpose.summary', posOf(summary[0], posOf(body[0])));
  const list = body[listAt];
  if (list?.type === 'list') {
    ctx.at('purpose.users', posOf(list));
    list.children.forEach((item, i) => {
      ctx.at(`purpose.users.${i}`, posOf(item));
    });
    spec.purpose.users = list.children
      .map((item) => rawRange(item.children, ctx.source))
      .filter((u) => u !== '');
  }
}
