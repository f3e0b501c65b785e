import { currentLocale, type Locale } from './locale.ts';

/**
 * Every piece of UI text that does not come from the specification, in one place so an app
 * can be translated: this is the English catalogue, the source of the keys; each other locale
 * has its own file (`uiText.de.ts`) typed as a full record of these keys. Templates use `{placeholders}` like the
 * specification's error catalogue.
 */
export const UI_TEXT = {
  appLoading: 'Starting {name}…',
  appLoadingDetail: 'Preparing your local database. This takes a moment the first time.',
  appFailed: 'The app could not start',
  // navigation and shell
  navigation: 'Navigation',
  breadcrumbs: 'Breadcrumbs',
  columns: 'Columns',
  filters: 'Filters',
  filtersActive: 'Filters ({count})',
  chooseColumns: 'Columns to show',
  myProfile: 'My profile',
  myProfileIntro:
    'What others on {name} see about you. Fields your roles may not change are shown read-only.',
  uploading: 'Uploading {name}… {percent}%',
  uploadingFiles: 'Uploading {done} of {count} files…',
  skipToContent: 'Skip to content',
  toggleNavigation: 'Toggle navigation',
  toggleColorScheme: 'Switch between light and dark',
  signedInAs: 'Signed in as {email}',
  roles: 'Roles',
  administration: 'Users and roles',
  language: 'Language',
  // auth
  signIn: 'Sign in',
  signUp: 'Create account',
  signOut: 'Sign out',
  email: 'Email',
  password: 'Password',
  name: 'Your name',
  signInTitle: 'Sign in to continue',
  signInSubtitle: 'Sign in to {name}',
  embeddedDataNotice:
    'This app keeps its data in this browser. Anyone using this browser profile can read all of it, whoever is signed in.',
  signUpTitle: 'Create your account',
  noAccount: 'No account yet?',
  haveAccount: 'Already have an account?',
  demoTitle: 'Try a demo account',
  demoHint: 'This is a local demo: your data stays in this browser. Pick a role to explore.',
  demoSwitch: 'Switch demo account',
  resetDemo: 'Reset demo data',
  insertSnippet: 'Insert {label}',
  undo: 'Undo',
  bulkActions: 'Actions on the chosen rows',
  selectedRows: '{count} chosen',
  selectRow: 'Choose {title}',
  selectAllRows: 'Choose every row shown',
  bulkRun: '{action} ({count})',
  bulkNone: 'No action applies to all of these at once',
  bulkConfirm: '{action}: {count} rows, one by one?',
  bulkDone: '{action}: {count} done',
  bulkRefused: '{count} refused',
  clearSelection: 'Clear choice',
  deletedToast: '{label} deleted',
  savedUndone: 'Change undone',
  insertSnippetPlaceholder: 'Choose one to add its text',
  resetDemoConfirm:
    'Everything in this demo goes back to how it started: your changes, new accounts and sign-ups are removed from this browser.',
  demoAs: 'Continue as {role}',
  // lists
  search: 'Search',
  searchPlaceholder: 'Search {plural}…',
  filter: 'Filter',
  filterAny: 'Any',
  sortBy: 'Sort by',
  sortAscending: 'Ascending',
  sortDescending: 'Descending',
  clearFilters: 'Clear filters',
  exportCsv: 'Export CSV',
  exportingCsv: 'Exporting {done} of {total}…',
  totalRows: '{count} {plural}',
  totalRowsAbout: 'about {count} {plural}',
  showingRows: 'Showing {from}–{to} of {total}',
  showingRowsAbout: 'Showing {from}–{to} of about {total}',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  newRow: 'New {label}',
  emptyList: 'Nothing here yet',
  emptyListHint: 'When there are {plural}, they will show up here.',
  emptyFiltered: 'No {plural} match these filters',
  loading: 'Loading…',
  // detail
  details: 'Details',
  edit: 'Edit',
  delete: 'Delete',
  deleteConfirm: 'Delete this {label}? This cannot be undone.',
  history: 'History',
  noHistory: 'No changes yet.',
  historyEdited: 'Edited',
  historyAdded: '{label} added',
  historyEmptied: 'emptied',
  /** Who made a change nobody made: a transition that happens by time. */
  historyBySystem: 'Automatically',
  historyEntry: '{actor} moved it from {from} to {to}',
  created: 'Created {when}',
  secondsAgo: 'a few seconds ago',
  updated: 'Updated {when}',
  actions: 'Actions',
  confirm: 'Confirm',
  confirmTransition: '{transition}: are you sure?',
  cancel: 'Cancel',
  close: 'Close',
  add: 'Add',
  empty: '—',
  hiddenValue: 'Hidden',
  hiddenValueHint: 'You may not see this value on this row',
  yes: 'Yes',
  no: 'No',
  related: 'Related {plural}',
  notAllowedRole: 'Your role cannot do this.',
  notAllowedGuard: 'Not possible right now.',
  notAllowedState: 'Not possible from {state}.',
  you: 'You',
  // forms
  save: 'Save',
  saving: 'Saving…',
  create: 'Create',
  required: 'This field is required.',
  tooShort: 'Use at least {min} characters.',
  tooLong: 'Use at most {max} characters.',
  tooSmall: 'Must be at least {min}.',
  tooLarge: 'Must be at most {max}.',
  badPattern: 'This does not have the expected format.',
  badFormat: 'Enter a valid {format}.',
  notANumber: 'Enter a number.',
  fileTooLarge: '{name} is larger than {max}.',
  tooManyFiles: 'At most {max} files.',
  fileTypeNotAccepted: '{name} is not an accepted file type.',
  chooseFiles: 'Attach files',
  download: 'Download {name}',
  fieldCreatedAt: 'Created',
  fieldUpdatedAt: 'Updated',
  fieldSize: 'Size',
  fieldName: 'Name',
  selectPlaceholder: 'Choose…',
  clearValue: 'Clear',
  searchToSelect: 'Type to search…',
  unsavedTitle: 'Discard changes?',
  unsavedBody: 'You have unsaved changes. Leave this page and lose them?',
  discard: 'Discard',
  keepEditing: 'Keep editing',
  staleTitle: 'Someone else changed this',
  staleBody:
    'This {label} was changed while you were editing. Reload the latest version (your edits are kept in the form) and save again.',
  reloadLatest: 'Reload latest',
  saved: 'Saved',
  createdToast: '{label} created',
  startsAs: 'Starts as {state}',
  startsAsUnknown: 'Its first state is chosen when it is saved',
  transitionDone: '{transition}: done',
  readOnlyField: 'You cannot change this field.',
  // board
  moveTo: 'Move to…',
  moveCard: 'Move {title}',
  dropHere: 'Drop here',
  columnClosed: 'Not available',
  // dashboard
  waitingOnMe: 'Waiting on me',
  nothingWaiting: 'Nothing needs your attention. Nice.',
  byStatus: '{plural} by status',
  targets: 'Targets',
  viewAll: 'View all',
  // admin
  users: 'Users',
  saveRoles: 'Save roles',
  rolesSaved: 'Roles updated',
  removeOwnRolesTitle: 'Remove your own role?',
  removeOwnRoles:
    'You are removing {roles} from your own account. You may lose access to this screen and others.',
  removeOwnRolesConfirm: 'Remove my role',
  editProfile: 'Edit profile',
  editProfileOf: 'Edit the profile of {name}',
  profileSaved: 'Profile saved',
  nothingToEdit: 'Your roles may not change any field of this profile.',
  joined: 'Joined',
  // pages
  notFoundTitle: 'Not found',
  notFoundBody: 'This page does not exist, or it is not available to you.',
  rowNotFound: 'This {label} was not found or is not available to you.',
  forbiddenTitle: 'Not available',
  forbiddenBody: 'Your role does not have access to this page.',
  backHome: 'Back to the start',
  loadFailed: 'This could not be loaded',
  tryAgain: 'Try again',
  crashTitle: 'Something went wrong',
  crashBody: 'This screen failed to show. Your data is safe; go back and try again.',
  missingComponent: 'No component is registered under the name "{name}".',
  // errors raised by the backend without a catalogue entry
  error_NOT_FOUND: 'Not found or not available to you.',
  error_CONFLICT: 'This was changed by someone else. Reload and try again.',
  error_FORBIDDEN: 'You are not allowed to do this.',
  error_UNAUTHENTICATED: 'Please sign in again.',
  error_INVALID_CREDENTIALS: 'That email and password do not match.',
  error_EMAIL_TAKEN: 'An account with this email already exists.',
  error_VALIDATION: 'Some values are not valid.',
  error_REQUIRED: 'This field is required.',
  error_UNIQUE: 'This value is already used.',
  error_INVALID_TRANSITION: 'This step is not possible from the current state.',
  error_NETWORK: 'The connection failed. Check your network and try again.',
  error_UNAVAILABLE: 'The service is not available right now.',
  error_INVALID_VALUE: 'This value is not valid.',
  error_REFERENCE: 'This refers to something that does not exist, or is still in use.',
  error_INTERNAL: 'Something went wrong on our side. Please try again.',
  errorOnRow: '{label} “{title}”: {message}',
  error_LAST_ADMIN: 'Someone must stay an admin: give another person the admin role first.',
  error_ROLE_IN_USE:
    'This role is still needed: {count} {entity} record(s) rely on this person holding it ({field}). Change those first.',
  error_WEAK_PASSWORD: 'Choose a longer password.',
  error_UNKNOWN: 'Something went wrong. Please try again.',
  error_INVALID_INPUT: 'Some values are not valid.',
  error_UNKNOWN_ENTITY: 'This kind of record does not exist in this app.',
  error_UNKNOWN_CALL: 'This action does not exist in this app.',
  error_INPUT_REQUIRED: 'Fill in every field this step asks for.',
  error_FIELD_NOT_WRITABLE: 'You cannot change this field.',
  error_APPEND_ONLY: 'This record cannot be changed or removed once written.',
  error_BATCH_TOO_LARGE: 'This changes too many records at once; do it in smaller parts.',
  error_NOT_SIGNED_IN: 'Please sign in.',
  error_SESSION_EXPIRED: 'Your session has expired; please sign in again.',
  error_SCHEMA_CHANGED: 'The app was updated in a way that needs your data exported first.',
  error_STORAGE_FULL: 'This device has no room left to save this. Free up space or remove large files.',
} as const;

export type UiTextKey = keyof typeof UI_TEXT;

type UiCatalogue = Readonly<Record<UiTextKey, string>>;

/**
 * Each locale's catalogue other than English, as its own chunk: a tab loads only the language it
 * speaks (`loadUiCatalogue`, awaited at boot before any text is shown), so the English majority
 * does not download the German texts on the way to the first screen. A locale added to `LOCALES`
 * without a loader here fails the type check.
 */
const LOADERS: Readonly<Record<Exclude<Locale, 'en'>, () => Promise<UiCatalogue>>> = {
  de: () => import('./uiText.de.ts').then((m) => m.UI_TEXT_DE),
};

const loaded: Partial<Record<Locale, UiCatalogue>> = { en: UI_TEXT };

/** Makes a locale's catalogue available to `ui()` (Node code and tests: `uiCatalogues.ts`). */
export function registerUiCatalogue(locale: Locale, catalogue: UiCatalogue): void {
  loaded[locale] = catalogue;
}

/** Loads the catalogue of `locale` (its own chunk) unless it is already there. */
export async function loadUiCatalogue(locale: Locale): Promise<void> {
  if (locale === 'en' || loaded[locale]) return;
  registerUiCatalogue(locale, await LOADERS[locale]());
}

/**
 * The catalogue of the locale in use; English until that locale's catalogue is loaded (the
 * boot awaits it, so a screen never mixes the two).
 */
export function uiCatalogue(): UiCatalogue {
  return loaded[currentLocale()] ?? UI_TEXT;
}

/**
 * One UI string with its placeholders filled.
 *
 * @example
 * ui('newRow', { label: 'Ticket' }) // 'New Ticket'
 */
export function ui(key: UiTextKey, params: Readonly<Record<string, unknown>> = {}): string {
  return fillTemplate(uiCatalogue()[key], params);
}

/** Replaces `{name}` with `params[name]`; unknown placeholders are left as they are. */
export function fillTemplate(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    return displayValue(params[name]);
  });
}

function displayValue(value: unknown): string {
  if (value === null || value === undefined) return uiCatalogue().empty;
  if (Array.isArray(value)) return value.map(displayValue).join(', ');
  return String(value);
}
