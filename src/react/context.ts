import type { ComponentType } from 'react';
import { createContext, useContext } from 'react';
import type { Backend, Row, Session } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import type { FormField } from '../runtime/formSchema.ts';
import type { RouteEntry, RouteTable } from '../runtime/routeTable.ts';
import type { RuleUser } from '../runtime/ruleVerdict.ts';

/** Props a custom screen receives. */
export interface CustomScreenProps {
  model: AppModel;
  backend: Backend;
  route: RouteEntry;
  params: Readonly<Record<string, string | undefined>>;
  user: RuleUser | null;
}

/** Props a custom field widget receives; it must call `onChange` with the new value. */
export interface WidgetProps {
  field: FormField;
  value: unknown;
  onChange(value: unknown): void;
  error: string | undefined;
  disabled: boolean;
  row: Readonly<Record<string, unknown>>;
  /** The first field of a dialog: focused when it opens (not the dialog's Close button). */
  autoFocus?: boolean;
}

/** Components an app registers by name: screens by `screen.component`, widgets by field name or type. */
export interface Components {
  screens?: Record<string, ComponentType<CustomScreenProps>>;
  widgets?: Record<string, ComponentType<WidgetProps>>;
}

/** A demo account the sign-in page offers (embedded backend only). */
export interface DemoAccount {
  role: string;
  /** A role held through a relationship that the demo rows give this account: its name on screen. */
  holds?: string;
  email: string;
  password: string;
  name?: string;
}

/**
 * The role a demo account is shown as: the relationship role the demo rows give it, else its own.
 *
 * @example
 * demoAccountLabel(model, { role: 'member', holds: 'orgAdmin', ... }); // 'Organisation administrator'
 */
export function demoAccountLabel(model: AppModel, account: DemoAccount): string {
  const role = account.holds ?? account.role;
  return model.roles.get(role)?.label ?? role;
}

export interface Runtime {
  model: AppModel;
  backend: Backend;
  routes: RouteTable;
  components: Components;
  session: Session | null;
  user: RuleUser | null;
  /** The signed-in person's profile row, when the app has a profile entity. */
  profile: Row | null;
  demoAccounts: readonly DemoAccount[];
  /** Signs in as a demo account (on a first visit its first screens show at once, see NinefoldApp). */
  signInDemo(account: DemoAccount): Promise<void>;
  /** Why the last demo sign-in shown ahead of the backend failed (the sign-in screen says it). */
  authFailure: unknown;
}

export const RuntimeContext = createContext<Runtime | null>(null);

/** The app's model, backend, routes and session; only inside `<NinefoldApp>`. */
export function useRuntime(): Runtime {
  const r = useContext(RuntimeContext);
  if (!r) throw new Error('useRuntime must be used inside <NinefoldApp>');
  return r;
}

/** What stays the same while a person is signed in: not the session object, nor their profile. */
export type AppCore = Pick<Runtime, 'model' | 'backend' | 'routes' | 'components' | 'user'>;

/**
 * The app's core, for what is drawn many times over (a list's rows and their cells): the session
 * confirmed by the database (it replaces the remembered one, same person) or the profile
 * arriving changes the runtime, and every row reading it was drawn again, some 150 ms of one
 * task on a return visit as the database opened.
 */
export const AppCoreContext = createContext<AppCore | null>(null);

/** The model, backend, routes, components and user; only inside `<NinefoldApp>`. */
export function useAppCore(): AppCore {
  const r = useContext(AppCoreContext);
  if (!r) throw new Error('useAppCore must be used inside <NinefoldApp>');
  return r;
}
