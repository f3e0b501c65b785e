/**
 * Team Tasks in German: every text of `spec.ts` a person reads, keyed by its English text (see
 * docs/i18n.md). `ninefold check examples/tasks` reports a key that matches no text and any text
 * left untranslated.
 */
export const de: Record<string, string> = {
  'Team Tasks': 'Team-Aufgaben',
  "A task tracker for teams that work for several organisations. Each organisation has its own members, each with a role in that organisation (owner, administrator or member), its own projects led by one of its members, and its own tasks: nobody sees anything of an organisation they are not a member of. Tasks have an assignee and a due date and become overdue when it passes. Members log the hours they worked on a task; an administrator approves each entry, which fixes its billable amount from the member's hourly rate, a figure only the owners and administrators of the organisation see. Working days follow the organisation's time zone.":
    'Ein Aufgabenplaner für Teams, die für mehrere Organisationen arbeiten. Jede Organisation hat ihre eigenen Mitglieder, jedes mit einer Rolle in dieser Organisation (Inhaber, Administrator oder Mitglied), ihre eigenen Projekte, geleitet von einem ihrer Mitglieder, und ihre eigenen Aufgaben: Niemand sieht etwas von einer Organisation, der er nicht angehört. Aufgaben haben eine zuständige Person und ein Fälligkeitsdatum und werden überfällig, wenn es verstreicht. Mitglieder erfassen die Stunden, die sie an einer Aufgabe gearbeitet haben; ein Administrator genehmigt jeden Eintrag und legt damit seinen abrechenbaren Betrag aus dem Stundensatz des Mitglieds fest, einer Zahl, die nur die Inhaber und Administratoren der Organisation sehen. Arbeitstage richten sich nach der Zeitzone der Organisation.',
  Dashboard: 'Übersicht',
  'My tasks': 'Meine Aufgaben',
  Overdue: 'Überfällig',
  'Task board': 'Aufgaben-Board',
  Task: 'Aufgabe',
  'New task': 'Neue Aufgabe',
  'Edit task': 'Aufgabe bearbeiten',
  Projects: 'Projekte',
  Project: 'Projekt',
  'New project': 'Neues Projekt',
  'Edit project': 'Projekt bearbeiten',
  Organisations: 'Organisationen',
  Organisation: 'Organisation',
  'New organisation': 'Neue Organisation',
  'Edit organisation': 'Organisation bearbeiten',
  'Add member': 'Mitglied hinzufügen',
  'Change role': 'Rolle ändern',
  'My time': 'Meine Zeiten',
  'Log time': 'Zeit erfassen',
  'Edit time entry': 'Zeiteintrag bearbeiten',
  'Time entry': 'Zeiteintrag',
  'Time to approve': 'Zu genehmigende Zeiten',
  Rates: 'Stundensätze',
  'New rate': 'Neuer Stundensatz',
  'Edit rate': 'Stundensatz bearbeiten',
  Person: 'Person',
  People: 'Personen',
  Name: 'Name',
  'E-mail': 'E-Mail',
  Founder: 'Gründer',
  'Who founded the organisation; they may always manage it.':
    'Wer die Organisation gegründet hat; darf sie immer verwalten.',
  'Time zone': 'Zeitzone',
  'Working hours and due dates are read in this time zone.':
    'Arbeitszeiten und Fälligkeitsdaten gelten in dieser Zeitzone.',
  'Berlin (Europe/Berlin)': 'Berlin (Europe/Berlin)',
  'London (Europe/London)': 'London (Europe/London)',
  'Lisbon (Europe/Lisbon)': 'Lissabon (Europe/Lisbon)',
  'New York (America/New_York)': 'New York (America/New_York)',
  'Tokyo (Asia/Tokyo)': 'Tokio (Asia/Tokyo)',
  'Working day starts': 'Arbeitstag beginnt',
  'The hour the working day starts, in the time zone (0–23).':
    'Die Stunde, zu der der Arbeitstag beginnt, in der Zeitzone (0–23).',
  'Working day ends': 'Arbeitstag endet',
  'The hour the working day ends, in the time zone (1–24).':
    'Die Stunde, zu der der Arbeitstag endet, in der Zeitzone (1–24).',
  Currency: 'Währung',
  'Rates and billable amounts are in this currency.':
    'Stundensätze und abrechenbare Beträge sind in dieser Währung.',
  EUR: 'EUR',
  USD: 'USD',
  GBP: 'GBP',
  CHF: 'CHF',
  Membership: 'Mitgliedschaft',
  Memberships: 'Mitgliedschaften',
  Role: 'Rolle',
  'Owners and administrators manage the members, projects and rates and approve time.':
    'Inhaber und Administratoren verwalten Mitglieder, Projekte und Stundensätze und genehmigen Zeiten.',
  Owner: 'Inhaber',
  Administrator: 'Administrator',
  Member: 'Mitglied',
  Rate: 'Stundensatz',
  'Hourly rate': 'Stundensatz',
  Code: 'Kürzel',
  'Two to six capital letters, e.g. WEB; unique in the organisation.':
    'Zwei bis sechs Großbuchstaben, z. B. WEB; eindeutig in der Organisation.',
  Description: 'Beschreibung',
  Lead: 'Projektleitung',
  "Plans the project's tasks; must be a member of the organisation.":
    'Plant die Aufgaben des Projekts; muss Mitglied der Organisation sein.',
  Archived: 'Archiviert',
  'An archived project takes no new tasks.': 'Ein archiviertes Projekt nimmt keine neuen Aufgaben an.',
  Tasks: 'Aufgaben',
  Title: 'Titel',
  Assignee: 'Zuständig',
  'Who does the task; must be a member of the organisation.':
    'Wer die Aufgabe erledigt; muss Mitglied der Organisation sein.',
  'Created by': 'Erstellt von',
  Due: 'Fällig',
  "The last day to finish the task, in the organisation's time zone.":
    'Der letzte Tag, um die Aufgabe zu erledigen, in der Zeitzone der Organisation.',
  Priority: 'Priorität',
  Low: 'Niedrig',
  Normal: 'Normal',
  High: 'Hoch',
  Urgent: 'Dringend',
  'Estimate (hours)': 'Schätzung (Stunden)',
  'How long the task should take.': 'Wie lange die Aufgabe dauern sollte.',
  Status: 'Status',
  Done: 'Erledigt',
  'Time entries': 'Zeiteinträge',
  Day: 'Tag',
  "The day worked, in the organisation's time zone.": 'Der Arbeitstag, in der Zeitzone der Organisation.',
  Hours: 'Stunden',
  Note: 'Notiz',
  'What was done, in a few words.': 'Was getan wurde, in wenigen Worten.',
  'The hourly rate the entry was approved at.': 'Der Stundensatz, zu dem der Eintrag genehmigt wurde.',
  'Billable amount': 'Abrechenbarer Betrag',
  'Hours × rate, fixed when the entry is approved.':
    'Stunden × Stundensatz, festgeschrieben bei der Genehmigung.',
  'Approved by': 'Genehmigt von',
  Approved: 'Genehmigt',
  Open: 'Offen',
  'Not started yet.': 'Noch nicht begonnen.',
  'In progress': 'In Arbeit',
  'Being worked on by the assignee.': 'Die zuständige Person arbeitet daran.',
  'Its due date has passed and it is not done; the lead reschedules or it gets done.':
    'Das Fälligkeitsdatum ist verstrichen und die Aufgabe ist nicht erledigt; die Projektleitung plant neu oder sie wird erledigt.',
  'Finished.': 'Abgeschlossen.',
  Start: 'Beginnen',
  'Stop working': 'Arbeit unterbrechen',
  'Mark as done': 'Als erledigt markieren',
  Reopen: 'Wieder öffnen',
  'Mark as overdue': 'Als überfällig markieren',
  Reschedule: 'Neu planen',
  Logged: 'Erfasst',
  'Waiting for an owner or administrator of the organisation to approve it.':
    'Wartet auf die Genehmigung durch einen Inhaber oder Administrator der Organisation.',
  'Approved; its rate and billable amount are fixed.':
    'Genehmigt; Stundensatz und abrechenbarer Betrag stehen fest.',
  Rejected: 'Abgelehnt',
  'Not billed; the member logs a corrected entry.':
    'Wird nicht abgerechnet; das Mitglied erfasst einen korrigierten Eintrag.',
  Approve: 'Genehmigen',
  Reject: 'Ablehnen',
  'Everyone with an account: works in the organisations they are a member of, with the role their membership gives them there (owner, administrator or member).':
    'Alle mit einem Konto: arbeiten in den Organisationen, denen sie angehören, mit der Rolle, die ihnen ihre Mitgliedschaft dort gibt (Inhaber, Administrator oder Mitglied).',
  'Platform administrator': 'Plattform-Administrator',
  'Looks after the accounts of everyone who uses the app; sees every organisation.':
    'Betreut die Konten aller, die die App nutzen; sieht jede Organisation.',
  'Enter a valid e-mail address, like name@example.com.':
    'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.',
  'Names may be at most {nameMaxLength} characters long.':
    'Namen dürfen höchstens {nameMaxLength} Zeichen lang sein.',
  'A working day starts at 0 at the earliest and ends at 24 at the latest.':
    'Ein Arbeitstag beginnt frühestens um 0 und endet spätestens um 24 Uhr.',
  'The working day must end after it starts.': 'Der Arbeitstag muss enden, nachdem er beginnt.',
  'This person is already a member of the organisation; change their role instead.':
    'Diese Person ist schon Mitglied der Organisation; ändern Sie stattdessen ihre Rolle.',
  'The person must be a member of the organisation.': 'Die Person muss Mitglied der Organisation sein.',
  'This person already has a rate in the organisation; change it instead.':
    'Diese Person hat in der Organisation schon einen Stundensatz; ändern Sie stattdessen diesen.',
  'A rate cannot be negative.': 'Ein Stundensatz kann nicht negativ sein.',
  'An hourly rate may be at most {maxHourlyRate}.':
    'Ein Stundensatz darf höchstens {maxHourlyRate} betragen.',
  'The organisation already has a project with this name.':
    'Die Organisation hat schon ein Projekt mit diesem Namen.',
  'The organisation already has a project with this code.':
    'Die Organisation hat schon ein Projekt mit diesem Kürzel.',
  'A project code is two to six capital letters, like WEB.':
    'Ein Projektkürzel besteht aus zwei bis sechs Großbuchstaben, etwa WEB.',
  'The lead must be a member of the organisation.': 'Die Projektleitung muss Mitglied der Organisation sein.',
  'Titles may be at most {titleMaxLength} characters long.':
    'Titel dürfen höchstens {titleMaxLength} Zeichen lang sein.',
  'An estimate is between 0 and {maxEstimateHours} hours; split bigger tasks.':
    'Eine Schätzung liegt zwischen 0 und {maxEstimateHours} Stunden; teilen Sie größere Aufgaben auf.',
  'The project is archived and takes no new tasks.':
    'Das Projekt ist archiviert und nimmt keine neuen Aufgaben an.',
  'The assignee must be a member of the organisation.':
    'Die zuständige Person muss Mitglied der Organisation sein.',
  'Plan at most {maxPlanningDays} days ahead.': 'Planen Sie höchstens {maxPlanningDays} Tage im Voraus.',
  'Only the assignee can start or stop work on a task.':
    'Nur die zuständige Person kann die Arbeit an einer Aufgabe beginnen oder unterbrechen.',
  'Only the assignee, the project lead or an organisation administrator can do this.':
    'Das können nur die zuständige Person, die Projektleitung oder die Administration der Organisation.',
  'Only the project lead or an organisation administrator can do this.':
    'Das können nur die Projektleitung oder die Administration der Organisation.',
  'Organisation member': 'Mitglied der Organisation',
  'Holds a membership of the organisation, whatever its role.':
    'Ist Mitglied der Organisation, mit welcher Rolle auch immer.',
  'Organisation owner': 'Inhaber der Organisation',
  'Owns the organisation: the only one who makes someone else an owner.':
    'Besitzt die Organisation: nur Inhaber machen jemand anderen zum Inhaber.',
  'Only an owner of the organisation can make someone an owner.':
    'Nur ein Inhaber der Organisation kann jemanden zum Inhaber machen.',
  'Organisation administrator': 'Administration der Organisation',
  'Owns or administers the organisation: manages members, projects and rates, approves time.':
    'Besitzt oder verwaltet die Organisation: verwaltet Mitglieder, Projekte und Sätze, genehmigt Zeiten.',
  'Project lead': 'Projektleitung',
  'Leads the project (its `lead`): plans, reschedules and reopens its tasks.':
    'Leitet das Projekt: plant, verschiebt und öffnet seine Aufgaben wieder.',
  'Nobody approves or rejects their own time.': 'Niemand genehmigt oder lehnt die eigenen Zeiten ab.',
  'Log between a quarter of an hour and {maxHoursPerDay} hours.':
    'Erfassen Sie zwischen einer Viertelstunde und {maxHoursPerDay} Stunden.',
  'Notes may be at most {noteMaxLength} characters long.':
    'Notizen dürfen höchstens {noteMaxLength} Zeichen lang sein.',
  'Time can be logged for today and earlier days only.':
    'Zeiten können nur für heute und frühere Tage erfasst werden.',
  'Time must be logged within {maxBackdateDays} days.':
    'Zeiten müssen innerhalb von {maxBackdateDays} Tagen erfasst werden.',
  'That makes {logged} hours on {day}; at most {maxHoursPerDay} hours can be logged for one day.':
    'Das ergibt {logged} Stunden am {day}; für einen Tag können höchstens {maxHoursPerDay} Stunden erfasst werden.',
  'The task is done; time is logged on open tasks.':
    'Die Aufgabe ist erledigt; Zeiten werden auf offene Aufgaben erfasst.',
  'Longest organisation or project name': 'Längster Organisations- oder Projektname',
  'Longest task title': 'Längster Aufgabentitel',
  'Longest time entry note': 'Längste Notiz eines Zeiteintrags',
  'Largest estimate of one task': 'Größte Schätzung einer Aufgabe',
  'How far ahead a task may be due': 'Wie weit im Voraus eine Aufgabe fällig sein darf',
  'Most hours logged by one person on one day': 'Meiste Stunden einer Person an einem Tag',
  'Days within which time must be logged': 'Tage, innerhalb derer Zeiten erfasst werden müssen',
  'Most hours of an entry approved without review': 'Meiste Stunden eines Eintrags ohne Prüfung',
  'Highest hourly rate': 'Höchster Stundensatz',
};
