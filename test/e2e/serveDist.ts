import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Serves a built app (single-page: unknown paths get index.html) as a static host serves one:
 * the hashed assets cacheable for a year, the page revalidated. Resolves to its base URL.
 */
export async function serveDist(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    let file = join(dir, path);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      file = join(dir, 'index.html');
      try {
        body = await readFile(file);
      } catch {
        res.writeHead(404).end();
        return;
      }
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      // Chromium keeps a script's compiled code only while its response is the cached one
      // (src/runtime/warmCodeCache.ts): an uncacheable asset is compiled anew on every visit.
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}
