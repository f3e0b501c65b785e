/**
 * A document carried in a link's fragment (never sent to a server): `#doc=1.<data>`, where `1` is
 * the format and `<data>` the UTF-8 text compressed with deflate-raw (CompressionStream) in base64url.
 */
const PREFIX = 'doc=';
const FORMAT = '1';

/** The longest fragment the studio makes or opens: browsers and chat tools cut longer links. */
export const MAX_LINK_CHARS = 200_000;
/** The longest document a link may unpack to: a small link must not unpack into gigabytes. */
export const MAX_DOC_CHARS = 2_000_000;

export type LinkProblem = 'corrupt' | 'tooLarge' | 'version';

/** What a fragment holds: no document, a document, or why it cannot be opened. */
export type LinkDocument =
  | { kind: 'none' }
  | { kind: 'doc'; text: string }
  | { kind: 'problem'; problem: LinkProblem };

/**
 * The fragment (without `#`) that carries `text`.
 *
 * @example
 * await shareFragment('# Helpdesk\n…'); // 'doc=1.q1ZyzkhNz…'
 */
export async function shareFragment(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return `${PREFIX}${FORMAT}.${toBase64Url(bytes)}`;
}

/**
 * The document a fragment carries (`location.hash`, with or without `#`); a damaged, foreign or
 * oversized one says why, and nothing is unpacked beyond `MAX_DOC_CHARS`.
 */
export async function linkDocument(hash: string): Promise<LinkDocument> {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(PREFIX)) return { kind: 'none' };
  if (fragment.length > MAX_LINK_CHARS) return { kind: 'problem', problem: 'tooLarge' };
  const body = fragment.slice(PREFIX.length);
  const dot = body.indexOf('.');
  if (dot < 0) return { kind: 'problem', problem: 'corrupt' };
  if (body.slice(0, dot) !== FORMAT) return { kind: 'problem', problem: 'version' };
  const bytes = fromBase64Url(body.slice(dot + 1));
  if (!bytes) return { kind: 'problem', problem: 'corrupt' };
  return inflate(bytes);
}

async function inflate(bytes: Uint8Array): Promise<LinkDocument> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = new Blob([bytes as BlobPart])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .getReader();
  const parts: string[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      // Bytes, an upper bound of the characters: stop before a bomb fills the memory.
      if (size > MAX_DOC_CHARS * 4) {
        await reader.cancel();
        return { kind: 'problem', problem: 'tooLarge' };
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
  } catch {
    return { kind: 'problem', problem: 'corrupt' };
  }
  const text = parts.join('');
  if (text.length > MAX_DOC_CHARS) return { kind: 'problem', problem: 'tooLarge' };
  return { kind: 'doc', text };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
