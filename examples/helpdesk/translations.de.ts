/**
 * The helpdesk in German: every text of `spec.ts` a person reads, keyed by its English text
 * (see docs/i18n.md). `ninefold check examples/helpdesk` reports a key that matches no text and
 * any text left untranslated.
 */
export const de: Record<string, string> = {
  Helpdesk: 'Helpdesk',
  'A small support desk. Customers sign up, file tickets about their problems and follow the conversation until the problem is solved. Agents triage incoming tickets, answer customers, keep internal notes the customer never sees, and solve tickets within first-response and resolution targets that depend on the priority. A solved ticket can be reopened for a few days; after that it is closed for good. Administrators maintain the categories, the saved replies and the people of the desk and their roles.':
    'Ein kleiner Support-Desk. Kundinnen und Kunden registrieren sich, melden Tickets zu ihren Problemen und verfolgen das Gespräch, bis das Problem gelöst ist. Agenten sichten neue Tickets, antworten, schreiben interne Notizen, die Kunden nie sehen, und lösen Tickets innerhalb der Ziele für Erstreaktion und Lösung, die von der Priorität abhängen. Ein gelöstes Ticket kann einige Tage lang wieder geöffnet werden; danach ist es endgültig geschlossen. Administratoren pflegen die Kategorien, die Textbausteine und die Personen des Desks mit ihren Rollen.',
  Dashboard: 'Übersicht',
  Tickets: 'Tickets',
  'My queue': 'Meine Warteschlange',
  'Late first responses': 'Verspätete Erstreaktionen',
  'New ticket': 'Neues Ticket',
  'Edit ticket': 'Ticket bearbeiten',
  Ticket: 'Ticket',
  Board: 'Board',
  'Saved replies': 'Textbausteine',
  Categories: 'Kategorien',
  'Saved reply': 'Textbaustein',
  'New saved reply': 'Neuer Textbaustein',
  'Edit saved reply': 'Textbaustein bearbeiten',
  Category: 'Kategorie',
  'New category': 'Neue Kategorie',
  'Edit category': 'Kategorie bearbeiten',
  Person: 'Person',
  Users: 'Benutzer',
  People: 'Personen',
  Name: 'Name',
  'E-mail': 'E-Mail',
  'Where notifications about tickets are sent.': 'Hierhin gehen Benachrichtigungen zu Tickets.',
  Organisation: 'Organisation',
  'The company or team the customer belongs to.':
    'Die Firma oder das Team, zu dem die Kundin oder der Kunde gehört.',
  Phone: 'Telefon',
  'For urgent tickets only.': 'Nur für dringende Tickets.',
  Subject: 'Betreff',
  'One line that says what is wrong, e.g. "Invoice PDF will not download".':
    'Eine Zeile, die sagt, was nicht stimmt, z. B. „Rechnungs-PDF lädt nicht herunter“.',
  Description: 'Beschreibung',
  'What happened, what you expected, and the steps to see it again.':
    'Was passiert ist, was Sie erwartet haben und wie man es nachvollziehen kann.',
  Priority: 'Priorität',
  'Urgent: the service is down for you. High: a major feature is broken. Normal: everything else.':
    'Dringend: Der Dienst ist für Sie ausgefallen. Hoch: Eine wichtige Funktion ist kaputt. Normal: alles andere.',
  Low: 'Niedrig',
  Normal: 'Normal',
  High: 'Hoch',
  Urgent: 'Dringend',
  Requester: 'Anfragende Person',
  'The person who filed the ticket.': 'Die Person, die das Ticket gemeldet hat.',
  Assignee: 'Zuständig',
  'The agent working on the ticket.': 'Der Agent, der das Ticket bearbeitet.',
  Status: 'Status',
  Due: 'Fällig',
  'When the ticket should be solved; at most the resolution target for its priority.':
    'Bis wann das Ticket gelöst sein soll; höchstens das Lösungsziel seiner Priorität.',
  'First response': 'Erstreaktion',
  Solved: 'Gelöst',
  Closed: 'Geschlossen',
  Resolution: 'Lösung',
  'How the problem was solved; sent to the requester.':
    'Wie das Problem gelöst wurde; geht an die anfragende Person.',
  'Reason for reopening': 'Grund für das Wiedereröffnen',
  'Times reopened': 'Wie oft wieder geöffnet',
  Rating: 'Bewertung',
  'How the requester rated the help they got, once the ticket is solved.':
    'Wie die anfragende Person die Hilfe bewertet hat, sobald das Ticket gelöst ist.',
  Good: 'Gut',
  Bad: 'Schlecht',
  'Rating comment': 'Kommentar zur Bewertung',
  Comment: 'Kommentar',
  Comments: 'Kommentare',
  Author: 'Verfasst von',
  Message: 'Nachricht',
  'Internal note': 'Interne Notiz',
  'Internal notes are seen by agents only, never by the customer.':
    'Interne Notizen sehen nur Agenten, nie die Kundin oder der Kunde.',
  Attachment: 'Anhang',
  Attachments: 'Anhänge',
  'Uploaded by': 'Hochgeladen von',
  Internal: 'Intern',
  'Internal attachments are seen by agents only.': 'Interne Anhänge sehen nur Agenten.',
  'Shown to customers when they choose a category.': 'Wird Kunden bei der Wahl einer Kategorie angezeigt.',
  Active: 'Aktiv',
  'Inactive categories are kept for old tickets but cannot be chosen for new ones.':
    'Inaktive Kategorien bleiben für alte Tickets erhalten, können für neue aber nicht gewählt werden.',
  'Default assignee': 'Standardmäßig zuständig',
  'The agent who usually takes tickets in this category.':
    'Der Agent, der Tickets dieser Kategorie meist übernimmt.',
  Title: 'Titel',
  Text: 'Text',
  Shared: 'Geteilt',
  'Shared replies are offered to every agent.': 'Geteilte Textbausteine werden allen Agenten angeboten.',
  'Created by': 'Erstellt von',
  New: 'Neu',
  'Filed by the customer, not yet taken by an agent.':
    'Vom Kunden gemeldet, noch von keinem Agenten übernommen.',
  Open: 'Offen',
  'An agent is working on it.': 'Ein Agent arbeitet daran.',
  'Waiting on customer': 'Wartet auf Kunden',
  'The agent needs an answer from the customer.': 'Der Agent braucht eine Antwort vom Kunden.',
  'The agent solved it; the customer can reopen it for a few days.':
    'Der Agent hat es gelöst; der Kunde kann es einige Tage lang wieder öffnen.',
  'Done for good; a new problem needs a new ticket.':
    'Endgültig erledigt; ein neues Problem braucht ein neues Ticket.',
  Take: 'Übernehmen',
  'Triage and assign': 'Sichten und zuweisen',
  'Wait on customer': 'Auf Kunden warten',
  Resume: 'Fortsetzen',
  Solve: 'Lösen',
  Reopen: 'Wieder öffnen',
  Close: 'Schließen',
  Withdraw: 'Zurückziehen',
  Rate: 'Bewerten',
  'This solution is already rated; reopen the ticket if the problem is back.':
    'Diese Lösung ist schon bewertet; öffnen Sie das Ticket wieder, wenn das Problem zurück ist.',
  'Discard as spam': 'Als Spam verwerfen',
  Customer: 'Kunde',
  'Files tickets and follows their own requests.': 'Meldet Tickets und verfolgt die eigenen Anfragen.',
  Agent: 'Agent',
  'Triages, answers and solves tickets; writes internal notes.':
    'Sichtet, beantwortet und löst Tickets; schreibt interne Notizen.',
  Administrator: 'Administrator',
  'Runs the desk: categories, people and roles. Can do everything an agent can.':
    'Leitet den Desk: Kategorien, Personen und Rollen. Kann alles, was ein Agent kann.',
  'Names may be at most {nameMaxLength} characters long.':
    'Namen dürfen höchstens {nameMaxLength} Zeichen lang sein.',
  'Enter a valid e-mail address, like name@example.com.':
    'Geben Sie eine gültige E-Mail-Adresse ein, z. B. name@example.com.',
  'Enter a phone number with its country code, like +44 20 7946 0000.':
    'Geben Sie eine Telefonnummer mit Ländervorwahl ein, z. B. +49 30 901820.',
  'Give the ticket a subject of at least {titleMinLength} characters.':
    'Geben Sie dem Ticket einen Betreff mit mindestens {titleMinLength} Zeichen.',
  'Titles may be at most {titleMaxLength} characters long; put the details in the description.':
    'Betreffzeilen dürfen höchstens {titleMaxLength} Zeichen lang sein; Details gehören in die Beschreibung.',
  'Describe the problem in at least {descriptionMinLength} characters so an agent can help.':
    'Beschreiben Sie das Problem in mindestens {descriptionMinLength} Zeichen, damit ein Agent helfen kann.',
  'Descriptions may be at most {descriptionMaxLength} characters; attach longer logs as files.':
    'Beschreibungen dürfen höchstens {descriptionMaxLength} Zeichen lang sein; hängen Sie längere Logs als Dateien an.',
  'Explain the resolution in at least {resolutionMinLength} characters; the requester reads it.':
    'Erklären Sie die Lösung in mindestens {resolutionMinLength} Zeichen; die anfragende Person liest sie.',
  'Messages may be at most {commentMaxLength} characters long.':
    'Nachrichten dürfen höchstens {commentMaxLength} Zeichen lang sein.',
  'Tickets can only be assigned to agents.': 'Tickets können nur Agenten zugewiesen werden.',
  'This category is no longer in use; choose another one.':
    'Diese Kategorie wird nicht mehr verwendet; wählen Sie eine andere.',
  'The due date is later than the resolution target for {priority} tickets.':
    'Das Fälligkeitsdatum liegt nach dem Lösungsziel für Tickets mit Priorität {priority}.',
  'The due date has passed; choose a time from now on.':
    'Das Fälligkeitsdatum liegt in der Vergangenheit; wählen Sie einen Zeitpunkt ab jetzt.',
  'A ticket can be rated once it is solved.': 'Ein Ticket kann bewertet werden, sobald es gelöst ist.',
  'This ticket is closed; file a new ticket and mention this one.':
    'Dieses Ticket ist geschlossen; melden Sie ein neues Ticket und verweisen Sie auf dieses.',
  'Attachments may be at most {maxAttachmentMb} MB.':
    'Anhänge dürfen höchstens {maxAttachmentMb} MB groß sein.',
  'A ticket may have at most {maxAttachmentsPerTicket} attachments, and agents as many internal ones.':
    'Ein Ticket darf höchstens {maxAttachmentsPerTicket} Anhänge haben, und Agenten ebenso viele interne.',
  'Solved tickets can be reopened within {reopenWindowDays} days; please file a new ticket instead.':
    'Gelöste Tickets können innerhalb von {reopenWindowDays} Tagen wieder geöffnet werden; bitte melden Sie stattdessen ein neues Ticket.',
  'Only the assigned agent or an administrator can do this.':
    'Das kann nur der zuständige Agent oder ein Administrator.',
  'Only the person who filed this ticket can do this.':
    'Das kann nur die Person, die das Ticket gemeldet hat.',
  'The ticket was solved, but the e-mail to the requester could not be sent.':
    'Das Ticket wurde gelöst, aber die E-Mail an die anfragende Person konnte nicht gesendet werden.',
  'Days a solved ticket can be reopened': 'Tage, in denen ein gelöstes Ticket wieder geöffnet werden kann',
  'First-response target, urgent tickets': 'Ziel für Erstreaktion, dringende Tickets',
  'First-response target, high priority': 'Ziel für Erstreaktion, hohe Priorität',
  'First-response target, normal priority': 'Ziel für Erstreaktion, normale Priorität',
  'First-response target, low priority': 'Ziel für Erstreaktion, niedrige Priorität',
  'Resolution target, urgent tickets': 'Lösungsziel, dringende Tickets',
  'Resolution target, high priority': 'Lösungsziel, hohe Priorität',
  'Resolution target, normal priority': 'Lösungsziel, normale Priorität',
  'Resolution target, low priority': 'Lösungsziel, niedrige Priorität',
  'Largest attachment': 'Größter Anhang',
  'Most attachments on one ticket': 'Meiste Anhänge an einem Ticket',
  'Shortest ticket subject': 'Kürzester Ticket-Betreff',
  'Longest ticket subject': 'Längster Ticket-Betreff',
  'Shortest ticket description': 'Kürzeste Ticket-Beschreibung',
  'Longest ticket description': 'Längste Ticket-Beschreibung',
  'Shortest resolution text': 'Kürzester Lösungstext',
  'Longest comment': 'Längster Kommentar',
  'Longest name': 'Längster Name',
};
