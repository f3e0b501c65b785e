import { linkDocument, MAX_DOC_CHARS, MAX_LINK_CHARS, shareFragment } from './shareLink.ts';
import { st } from './studioLocale.ts';
import type { StudioTextKey } from './studioText.ts';

/** What the share, export and import buttons need from the page. */
export interface DocumentPort {
  text(): string;
  /** Puts a document in the editor, unsaved: the stored one changes only on Save. */
  replace(text: string): void;
  name(): string;
  status(text: string): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Wires Export (a .md download), Import (a .md file into the editor) and Share link. */
export function setUpShareControls(port: DocumentPort): void {
  $('export').addEventListener('click', () => exportDocument(port));
  const input = $<HTMLInputElement>('import-file');
  $('import').addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) void importDocument(file, port);
  });
  $('share').addEventListener('click', () => void share(port));
  // A link pasted into this tab changes only the fragment: open it as a page load would.
  addEventListener('hashchange', () => {
    if (location.hash.startsWith('#doc=')) location.reload();
  });
}

function exportDocument(port: DocumentPort): void {
  const name = /\.md$/i.test(port.name()) ? port.name() : `${port.name()}.md`;
  const url = URL.createObjectURL(new Blob([port.text()], { type: 'text/markdown;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name.slice(name.lastIndexOf('/') + 1);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  port.status(st('exported', { file: a.download }));
}

async function importDocument(file: File, port: DocumentPort): Promise<void> {
  if (file.size > MAX_DOC_CHARS * 4) {
    port.status(st('importTooLarge', { file: file.name, max: MAX_DOC_CHARS }));
    return;
  }
  const text = await file.text();
  if (text.length > MAX_DOC_CHARS) port.status(st('importTooLarge', { file: file.name, max: MAX_DOC_CHARS }));
  // A NUL or a replacement character: the bytes were not UTF-8 text.
  else if (text.includes('\0') || text.includes('\uFFFD'))
    port.status(st('importNotText', { file: file.name }));
  else {
    port.replace(text);
    port.status(st('imported', { file: file.name }));
  }
}

async function share(port: DocumentPort): Promise<void> {
  const fragment = await shareFragment(port.text());
  const box = $('share-box');
  if (fragment.length > MAX_LINK_CHARS) {
    box.hidden = true;
    port.status(st('shareTooLong', { size: fragment.length }));
    return;
  }
  const link = `${location.origin}${location.pathname}#${fragment}`;
  const field = $<HTMLInputElement>('share-link');
  field.value = link;
  box.hidden = false;
  field.select();
  try {
    await navigator.clipboard.writeText(link);
    port.status(st('shareCopied'));
  } catch {
    // No clipboard (permission or an insecure origin): the link is in the field, selected.
    port.status(st('shareReady'));
  }
}

const PROBLEM_TEXT: Record<'corrupt' | 'tooLarge' | 'version', StudioTextKey> = {
  corrupt: 'linkCorrupt',
  tooLarge: 'linkTooLarge',
  version: 'linkVersion',
};

/**
 * The document the page's link carries, or null (no link, or one that cannot be opened: then the
 * page says why, in an alert, and the stored document is left as it is).
 */
export async function linkedDocument(): Promise<string | null> {
  const found = await linkDocument(location.hash);
  if (found.kind === 'none') return null;
  const notice = $('link-notice');
  notice.textContent = st(found.kind === 'doc' ? 'linkLoaded' : PROBLEM_TEXT[found.problem]);
  notice.hidden = false;
  return found.kind === 'doc' ? found.text : null;
}

/** After a save the stored document is the one shown: a reload should open it, not the link. */
export function forgetLink(): void {
  if (location.hash.startsWith('#doc=')) history.replaceState(null, '', location.pathname + location.search);
}
