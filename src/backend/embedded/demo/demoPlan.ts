/** A reference to a demo row or person by key, resolved to its id while seeding. */
export interface DemoRef {
  $ref: string;
}

export const ref = (key: string): DemoRef => ({ $ref: key });

export interface DemoPerson {
  key: string;
  email: string;
  name: string;
  roles: string[];
  /** Only demo accounts have one; other people cannot sign in. */
  password?: string;
  /** Profile fields beyond name/email (references allowed). */
  profile?: Record<string, unknown>;
}

export interface DemoRow {
  entity: string;
  key: string;
  values: Record<string, unknown>;
  /** File rows: the bytes. */
  file?: { name: string; type: string; bytes: Uint8Array };
  createdAt: Date;
  updatedAt?: Date;
  /** Set after every row exists (final states, which rules would refuse children under). */
  after?: Record<string, unknown>;
  /**
   * Values as written when the row was created, which the rules judged then, not today (a due
   * date that has passed since: an overdue ticket): set with the row's timestamps, its triggers off.
   */
  backdated?: Record<string, unknown>;
}

export interface DemoHistory {
  entity: string;
  row: string;
  transition: string;
  from: string;
  to: string;
  /** The demo person who ran it; null for the system (a transition by time). */
  actor: string | null;
  at: Date;
  input?: Record<string, unknown>;
}

/** Everything one app's demo data consists of; inserted in order by `seedDemo`. */
export interface DemoPlan {
  people: DemoPerson[];
  rows: DemoRow[];
  history: DemoHistory[];
}
