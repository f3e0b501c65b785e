// The bucket's name is built in the model (src/model/storageNames.ts); re-exported for the adapter.
export { bucketName } from '../../model/storageNames.ts';

// Supabase Storage accepts only these characters in object keys; anything else becomes `_`.
const KEY_CHAR = /[\w!\-.*'() &$@=;:+,?]/;

/**
 * The object key of a file row: `<row id>/<name>`. The first folder is the row id, which is what
 * the storage policies join on; the name is kept readable but limited to characters Storage accepts
 * (the row keeps the original name).
 *
 * @example
 * objectPath('6f1c…', 'reçu 03.pdf'); // '6f1c…/re_u 03.pdf'
 */
export function objectPath(id: string, name: string): string {
  const safe = [...name].map((c) => (KEY_CHAR.test(c) ? c : '_')).join('');
  return `${id}/${safe === '' || safe === '.' || safe === '..' ? 'file' : safe}`;
}
