/** The template with a small reading-list app filled in, table by table, prose and comments kept. */
export function fillBlankTemplate(template: string): string {
  const rowsAfter = (text: string, header: string, rows: string[]) => {
    const at = text.indexOf(header);
    if (at < 0) throw new Error(`the template has no table ${header}`);
    const delimiterEnd = text.indexOf('\n', text.indexOf('\n', at) + 1);
    return `${text.slice(0, delimiterEnd + 1)}${rows.join('\n')}\n${text.slice(delimiterEnd + 1)}`;
  };
  let doc = template
    .replace('# My app', '# Reading List')
    .replace(
      'What the app is for, in a paragraph.',
      'Books a small book club wants to read, with who suggested them.',
    )
    .replace('- The people who use it, and what for', '- Readers, who suggest books');
  doc = rowsAfter(doc, '| Screen | Title | Route |', [
    '| `books` | Books | `/` | list | Book | Reader | Every suggested book. |',
    '| `newBook` | Suggest a book | `/books/new` | form | Book | Reader | |',
    '| `book` | Book | `/books/:id` | detail | Book | not in the navigation | |',
  ]);
  // Entities: the people (the app's users) and the books.
  doc = doc.replace(
    '### Item (`item`)\n\nPlural: Items. A row is shown by its Title.',
    [
      '### Person (`person`)',
      '',
      "Plural: People. A row is shown by its Name. Its rows are the app's users.",
      '',
      '| Field | Label | Type | Required | Default | Unique | Owner | Help | In lists | Searched |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| `name` | Name | text | yes | | | | | yes | |',
      '| `email` | E-mail | email address | yes | | yes | | | | |',
      '',
      '### Book (`book`)',
      '',
      'Plural: Books. A row is shown by its Title.',
    ].join('\n'),
  );
  doc = doc.replace(
    '| Field | Label | Type | Required | Default | Unique | Owner | Help | In lists | Searched |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n\n## 4',
    [
      '| Field | Label | Type | Required | Default | Unique | Owner | Help | In lists | Searched |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| `title` | Title | text | ✓ | | | | | ✓ | |',
      '| `author` | Author | text | | | | | Who wrote it. | ✓ | |',
      '| `suggestedBy` | Suggested by | user; the user cannot be deleted while this row points to it | | | | ✓ | | ✓ | |',
      '',
      '## 4',
    ].join('\n'),
  );
  // No lifecycle: the placeholder state tables go.
  const states = doc.indexOf('### Item\n\nThe status is kept');
  doc = `${doc.slice(0, states)}No entity has a lifecycle.\n\n${doc.slice(doc.indexOf('## 5.'))}`;
  doc = doc.replace('### Item\n\n| Rule | Error |', '### Book\n\n| Rule | Error |');
  doc = rowsAfter(doc, '| Rule | Error |', [
    '| Title must be at most {titleMax} characters long. | `TITLE_TOO_LONG`: Titles are short. |',
  ]);
  doc = rowsAfter(doc, '| Role | Label | Description |', ['| `reader` | Reader | Suggests books. | | yes |']);
  doc = doc.replace(
    '#### Item\n\n| Role | Read | Create | Update | Delete |\n| --- | --- | --- | --- | --- |',
    [
      '#### Person',
      '',
      '| Role | Read | Create | Update | Delete |',
      '| --- | --- | --- | --- | --- |',
      '| Reader | always | never | when `id = me`: Name | never |',
      '',
      '#### Book',
      '',
      '| Role | Read | Create | Update | Delete |',
      '| --- | --- | --- | --- | --- |',
      '| Reader | always | always | when `suggestedBy = me`: Title, Author | when `suggestedBy = me` |',
    ].join('\n'),
  );
  doc = rowsAfter(doc, '| Code | Message | Severity | Field |', [
    '| `TITLE_TOO_LONG` | Titles may be at most {titleMax} characters long. | error | Title (Book) |',
  ]);
  doc = rowsAfter(doc, '| Name | Label | Value | Unit |', ['| `titleMax` | Longest title | 120 | count |']);
  return doc;
}
