import { fillBlankTemplate } from './fillBlankTemplate.ts';

/**
 * The blank template filled in as a small reading club, as an author would write it in the studio:
 * the reading list (fillBlankTemplate.ts) with a lifecycle for books (suggested → reading → read)
 * and a second role, the host, who may delete any book (a reader may delete none).
 */
export function readingClubDoc(template: string): string {
  let doc = fillBlankTemplate(template)
    .replace('# Reading List', '# Reading Club')
    .replace(
      '| `suggestedBy` | Suggested by |',
      '| `status` | Status | status: `suggested`, `reading`, `read` (see section 4) | yes | | | | | ✓ | |\n| `suggestedBy` | Suggested by |',
    )
    .replace('| Book | Reader | Every suggested book. |', '| Book | Reader, Host | Every suggested book. |')
    .replace('| Book | Reader | |', '| Book | Reader, Host | |');
  doc = doc.replace(
    'No entity has a lifecycle.\n',
    [
      '### Book',
      '',
      'The status is kept in the field Status (`status`).',
      '',
      '| State | Label | Initial | Final | Meaning | Waiting on |',
      '| --- | --- | --- | --- | --- | --- |',
      '| `suggested` | Suggested | yes | | Someone would like the club to read it. | |',
      '| `reading` | Reading | | | The club is reading it. | |',
      '| `read` | Read | | yes | The club has read it. | |',
      '',
      '| Transition | Label | From | To | Roles | Guard | Asks for | Sets | Notes |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      `${START}`,
      `${FINISH}`,
      '| `skip` | Skip it | Suggested | Read | Host | none | | | |',
      '',
    ].join('\n'),
  );
  doc = doc.replace(
    '| `reader` | Reader | Suggests books. | | yes |',
    '| `reader` | Reader | Suggests books. | | yes |\n| `host` | Host | Runs the club. | | |',
  );
  doc = doc.replace(
    '| Reader | always | never | when `id = me`: Name | never |',
    '| Reader | always | never | when `id = me`: Name | never |\n| Host | always | never | never | never |',
  );
  doc = doc.replace(
    '| Reader | always | always | when `suggestedBy = me`: Title, Author | when `suggestedBy = me` |',
    '| Reader | always | always | when `suggestedBy = me`: Title, Author | never |\n| Host | always | always | always: Title, Author | always |',
  );
  return doc;
}

/** The transitions through the state `reading` (removing it means removing them). */
export const START = '| `start` | Start reading | Suggested | Reading | Reader, Host | none | | | |';
export const FINISH = '| `finish` | Finish | Reading | Read | Reader, Host | none | | | |';
export const READING_STATE = '| `reading` | Reading | | | The club is reading it. | |';
