import type { ShapeSpec, ShapeType } from '../spec/types.ts';

/** Why a shape could not be read: the message and the offset in the text. */
export interface ShapeError {
  message: string;
  offset: number;
}

const BASE = new Set(['string', 'number', 'integer', 'boolean', 'datetime', 'uuid', 'email', 'date']);

/**
 * Reads the TypeScript-like object type `ninefold doc` prints for a declared call's payload or
 * response (`{ id: uuid; note?: string; lines: { amount: number }[] }`) back into a shape.
 * A small recursive-descent parser over tokens; it never throws.
 *
 * @example
 * parseShape('{ id: uuid; tags?: string[] }'); // { ok: true, shape: { id: 'uuid', 'tags?': ['string'] }, end: 27 }
 */
export function parseShape(
  text: string,
  start = 0,
): { ok: true; shape: ShapeSpec; end: number } | { ok: false; error: ShapeError } {
  let i = start;
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      if (text.startsWith('//', i)) {
        while (i < text.length && text[i] !== '\n') i++;
      } else return;
    }
  };
  const fail = (message: string): { ok: false; error: ShapeError } => ({
    ok: false,
    error: { message, offset: i },
  });
  const ident = (): string | undefined => {
    skip();
    const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (!m) {
      const q = /^(['"])((?:\\.|(?!\1).)*)\1/.exec(text.slice(i));
      if (!q) return undefined;
      i += q[0].length;
      return q[2];
    }
    i += m[0].length;
    return m[0];
  };
  const type = (depth: number): { ok: true; type: ShapeType } | { ok: false; error: ShapeError } => {
    if (depth > 20) return fail('shapes nest too deeply');
    skip();
    let t: ShapeType;
    if (text[i] === '{') {
      const o = object(depth + 1);
      if (!o.ok) return o;
      t = o.shape;
    } else if (text[i] === '(') {
      i++;
      const inner = type(depth + 1);
      if (!inner.ok) return inner;
      skip();
      if (text[i] !== ')') return fail('expected ")"');
      i++;
      t = inner.type;
    } else {
      const name = ident();
      if (name === undefined)
        return fail(
          'expected a type (string, number, integer, boolean, datetime, uuid, email, an object or an array)',
        );
      if (!BASE.has(name))
        return fail(`unknown type "${name}" (use string, number, integer, boolean, datetime, uuid or email)`);
      t = (name === 'date' ? 'string' : name) as ShapeType;
    }
    for (;;) {
      skip();
      if (text.startsWith('[]', i)) {
        i += 2;
        t = [t] as const;
      } else break;
    }
    return { ok: true, type: t };
  };
  const object = (
    depth: number,
  ): { ok: true; shape: ShapeSpec; end: number } | { ok: false; error: ShapeError } => {
    skip();
    if (text[i] !== '{') return fail('expected "{"');
    i++;
    const shape: ShapeSpec = {};
    for (;;) {
      skip();
      if (text[i] === '}') {
        i++;
        return { ok: true, shape, end: i };
      }
      const name = ident();
      if (name === undefined) return fail('expected a member name or "}"');
      skip();
      let optional = false;
      if (text[i] === '?') {
        optional = true;
        i++;
        skip();
      }
      if (text[i] !== ':') return fail(`expected ":" after "${name}"`);
      i++;
      const t = type(depth);
      if (!t.ok) return t;
      shape[optional ? `${name}?` : name] = t.type;
      skip();
      if (text[i] === ';' || text[i] === ',') i++;
      else if (text[i] !== '}') return fail('expected ";" or "}"');
    }
  };
  return object(0);
}
