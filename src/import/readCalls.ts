import type { RootContent } from 'mdast';
import { FILL_MARKER } from '../spec/callFills.ts';
import type { AppSpec, DeclaredCallSpec } from '../spec/types.ts';
import { cellLines, unmark } from './cellLines.ts';
import { type ImportContext, splitList } from './importContext.ts';
import { codesOf, type Pos, posOf, rawRange, sectionsAt } from './markdownTree.ts';
import { parseShape } from './parseShape.ts';
import { roleNames } from './specNames.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Section 7: only the declared calls are read (`### Declared calls`, one `#### name` each);
 * the derived calls follow from the entities and are printed for readers, not read back.
 */
export function readCalls(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const declared = sectionsAt(body, 3).find((s) => s.title.toLowerCase().includes('declared'));
  if (!declared) return;
  for (const block of sectionsAt(declared.body, 4)) {
    const name = codesOf(block.heading)[0] ?? block.title;
    const path = `calls.declared.${name}`;
    const pos = posOf(block.heading);
    ctx.at(path, pos);
    const call: DeclaredCallSpec = {
      description: '',
      method: 'POST',
      path: '',
      service: '',
      payload: {},
      response: {},
      roles: [],
      error: '',
    };
    const description = block.body.filter((n) => n.type === 'paragraph');
    call.description = rawRange(description, ctx.source);
    ctx.at(`${path}.description`, posOf(description[0], pos));
    const seen = new Set<string>();
    for (const list of block.body) {
      if (list.type !== 'list') continue;
      for (const item of list.children) {
        const para = item.children[0];
        if (para?.type !== 'paragraph') continue;
        const [line] = cellLines({ type: 'tableCell', children: para.children });
        if (!line) continue;
        const at = posOf(item);
        const colon = line.marked.indexOf(':');
        const key = (colon >= 0 ? line.marked.slice(0, colon) : '').trim().toLowerCase();
        const value = colon >= 0 ? line.marked.slice(colon + 1).trim() : '';
        const codeAt = /\uE000(\d+)\uE000/.exec(value)?.[1];
        const firstCode = codeAt === undefined ? undefined : line.codes[Number(codeAt)];
        const plain = firstCode ?? unmark(line, value);
        seen.add(key);
        if (key === 'service') {
          call.service = plain;
          ctx.at(`${path}.service`, at);
        } else if (key === 'request') {
          const [method = '', ...rest] = plain.split(/\s+/);
          const m = METHODS.find((x) => x === method.toUpperCase());
          ctx.at(`${path}.method`, at);
          ctx.at(`${path}.path`, at);
          if (!m)
            ctx.problem(
              'doc/invalid-value',
              at,
              `${path}.method`,
              `unknown method "${method}"`,
              `one of: ${METHODS.join(', ')}`,
            );
          else call.method = m;
          call.path = rest.join(' ');
        } else if (key === 'who may call' || key === 'roles') {
          ctx.at(`${path}.roles`, at);
          const words = unmark(line, value)
            .replace(/\([^)]*by inheritance\)/gi, '')
            .trim();
          call.roles =
            words.toLowerCase() === 'nobody'
              ? []
              : splitList(words).flatMap((t) => {
                  const r = ctx.resolve(roleNames(spec), t, 'role', at, `${path}.roles`);
                  return r ? [r] : [];
                });
        } else if (key === 'when it fails' || key === 'error') {
          ctx.at(`${path}.error`, at);
          call.error = firstCode ?? plain.split(':')[0]?.trim() ?? '';
        } else if (key !== 'path parameters' && key !== 'queued when it commits') {
          // Those two are derived (from the path, from the transitions that queue the call).
          ctx.problem(
            'doc/invalid-value',
            at,
            path,
            `cannot read the bullet "${unmark(line)}"`,
            'a declared call has the bullets "Service: `name`", "Request: `POST /path`", "Who may call: <roles>" and "When it fails: `CODE`"',
          );
        }
      }
    }
    for (const [k, words] of [
      ['service', 'Service: `<service>`'],
      ['request', 'Request: `POST /path/:id`'],
      ['when it fails', 'When it fails: `ERROR_CODE`'],
    ] as const) {
      if (!seen.has(k) && !(k === 'when it fails' && seen.has('error')))
        ctx.problem(
          'doc/missing',
          pos,
          path,
          `the call has no "${words.split(':')[0]}" line`,
          `add the bullet "- ${words}"`,
        );
    }
    const codeBlock = block.body.find((n) => n.type === 'code');
    if (codeBlock?.type === 'code') readShapes(ctx, codeBlock.value, posOf(codeBlock), path, call);
    else
      ctx.problem(
        'doc/missing',
        pos,
        path,
        'the call has no payload and response block',
        'add a ```ts block with "// Payload" {…} and "// Response" {…}',
      );
    spec.calls.declared[name] = call;
  }
}

/** `// Payload {…} // Response {…}` in the code block. */
function readShapes(ctx: ImportContext, text: string, pos: Pos, path: string, call: DeclaredCallSpec): void {
  for (const [word, key] of [
    ['payload', 'payload'],
    ['response', 'response'],
  ] as const) {
    const marker = text.toLowerCase().indexOf(`// ${word}`);
    ctx.at(`${path}.${key}`, pos);
    if (marker < 0) {
      ctx.problem(
        'doc/missing',
        pos,
        `${path}.${key}`,
        `the block has no "// ${word[0]?.toUpperCase()}${word.slice(1)}" shape`,
      );
      continue;
    }
    // The JSON starts on the line after the marker's (whose words may show a {placeholder}).
    const eol = text.indexOf('\n', marker);
    const start = eol < 0 ? -1 : text.indexOf('{', eol);
    const r = parseShape(text, start < 0 ? text.length : start);
    if (!r.ok) {
      const before = text.slice(0, r.error.offset).split('\n');
      const at = { line: pos.line + before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
      ctx.problem(
        'doc/invalid-value',
        at,
        `${path}.${key}`,
        r.error.message,
        'shapes read like TypeScript: `{ name: string; count?: integer; items: { id: uuid }[] }`',
      );
      continue;
    }
    call[key] = r.shape;
  }
  readFill(ctx, text, pos, path, call);
}

/** `// Filled by the database … {JSON}` after the shapes: the call's `fill`, read as JSON. */
function readFill(ctx: ImportContext, text: string, pos: Pos, path: string, call: DeclaredCallSpec): void {
  const marker = text.toLowerCase().indexOf(FILL_MARKER.toLowerCase());
  if (marker < 0) return;
  ctx.at(`${path}.fill`, pos);
  // The JSON starts on the line after the marker's (whose words may show a {placeholder}).
  const eol = text.indexOf('\n', marker);
  const start = eol < 0 ? -1 : text.indexOf('{', eol);
  const before = text.slice(0, start < 0 ? marker : start).split('\n');
  const at = { line: pos.line + before.length, column: 1 };
  let value: unknown;
  try {
    value = JSON.parse(start < 0 ? '' : text.slice(start));
  } catch (e) {
    ctx.problem(
      'doc/invalid-value',
      at,
      `${path}.fill`,
      `the fill is not JSON (${e instanceof Error ? e.message : String(e)})`,
      'write it as { "key": "value in the rule language", "list": { "rows": "child" } }',
    );
    return;
  }
  // Its shape (and every value) is checked with the rest of the specification.
  call.fill = value as DeclaredCallSpec['fill'];
}
