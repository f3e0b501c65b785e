import { expect } from 'vitest';
import {
  type Backend,
  BackendError,
  BUILTIN_ERROR_CODES,
  type Row,
  type Session,
} from '../../src/backend/types.ts';
import type { AppModel } from '../../src/model/appModel.ts';

/** E-mail and password of an existing account. */
export interface Credentials {
  email: string;
  password: string;
}

/**
 * What the generic checks need to know about one entity of the spec that the model cannot say:
 * values that make a valid row. Everything else (roles, policies, codes, columns) comes from the model.
 */
export interface ConformanceSample {
  /** An entity the sign-up role may create and read (its own rows only, where the spec says so). */
  entity: string;
  /** A required text field the checks write distinct values into, search and sort by. */
  field: string;
  /** The other values a valid row needs. */
  values: Record<string, unknown>;
}

export interface ConformanceOptions {
  /** Builds a backend on a prepared database (migration applied, accounts present). */
  makeBackend: (options: { now: () => Date }) => Promise<Backend>;
  /** An existing account per role the checks sign in as (the demo accounts). */
  accounts: Record<string, Credentials>;
  sample: ConformanceSample;
  /** Whether `now` given to makeBackend drives session expiry (not on a hosted backend). */
  controlsClock: boolean;
  /**
   * Whether the backend's calls run in the test's own process, so an AbortSignal can reach them
   * (default true; false where each call is relayed into a page as data).
   */
  takesSignals?: boolean;
  /** The spec's own checks (its rules, transitions, files, calls), run on the same backend. */
  scenarios?: readonly ((ctx: ConformanceContext) => void)[];
}

/** What every check shares: the backend under test, its clock, and helpers named after the contract. */
export interface ConformanceContext {
  model: AppModel;
  options: ConformanceOptions;
  /** The backend (set in `beforeAll`). */
  b: () => Backend;
  /** The clock the backend reads (ms), when `controlsClock`. */
  clock: { now: number };
  /** The role sign-up grants, and the role that administers users (if any). */
  roles: { signup: string; admin: string | undefined };
  /** Signs out, then in as the account of `role`. */
  as(role: string): Promise<Session>;
  /** Rejects with a BackendError whose code is in the catalogue, and equal to `code`. */
  rejects(p: Promise<unknown>, code: string): Promise<BackendError>;
  /** A row of the sample entity with `text` in its sample field. */
  create(text: string, extra?: Record<string, unknown>): Promise<Row>;
  /** A fresh e-mail per call, so the suite can run again on the same database. */
  freshEmail(tag: string): string;
}

let counter = 0;

/** The context of one run, and how the run hands it the backend once made. */
export function conformanceContext(
  model: AppModel,
  options: ConformanceOptions,
): { ctx: ConformanceContext; setBackend: (b: Backend | undefined) => void } {
  const codes = new Set<string>([...BUILTIN_ERROR_CODES, ...model.errors.keys()]);
  const roles = [...model.roles.values()];
  const signup = roles.find((r) => r.signup)?.name;
  if (!signup) throw new Error('conformance: the spec has no sign-up role');
  let backend: Backend | undefined;
  const ctx: ConformanceContext = {
    model,
    options,
    b: () => {
      if (!backend) throw new Error('conformance: no backend yet');
      return backend;
    },
    clock: { now: Date.now() },
    roles: { signup, admin: roles.find((r) => r.admin)?.name },
    async as(role) {
      const account = options.accounts[role];
      if (!account) throw new Error(`conformance: no account for role ${role}`);
      await ctx.b().auth.signOut();
      return ctx.b().auth.signIn(account);
    },
    async rejects(p, code) {
      const e = await p.then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e, `expected ${code}`).toBeInstanceOf(BackendError);
      const be = e as BackendError;
      expect(codes.has(be.code), `${be.code} is not a catalogue code`).toBe(true);
      expect(be.code).toBe(code);
      return be;
    },
    create: (text, extra = {}) =>
      ctx.b().data.create(options.sample.entity, {
        ...options.sample.values,
        [options.sample.field]: text,
        ...extra,
      }),
    freshEmail(tag) {
      counter += 1;
      return `${tag}-${Date.now().toString(36)}-${counter}@conformance.test`;
    },
  };
  return {
    ctx,
    setBackend: (b) => {
      backend = b;
    },
  };
}
