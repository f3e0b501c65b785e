/**
 * The snapshot's bytes labelled by what they are, not by what the server said. PGlite gunzips a
 * data-directory archive whose type says gzip, so a server that sends `snapshot.tar.gz` with
 * `Content-Encoding: gzip` (Apache's `AddEncoding x-gzip .gz`, a CDN compressing every response)
 * hands the app a plain tar the browser already unpacked, still typed `application/gzip`, and
 * PGlite's gunzip of it failed the first visit ("File is corrupted"). The first two bytes decide:
 * gzip's magic number, else a tar.
 *
 * @example
 * const db = await PGlite.create({ loadDataDir: await snapshotBlob(await response.blob()) });
 */
export async function snapshotBlob(blob: Blob): Promise<Blob> {
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const type = gzipped ? 'application/x-gzip' : 'application/x-tar';
  return blob.type === type ? blob : new Blob([blob], { type });
}
