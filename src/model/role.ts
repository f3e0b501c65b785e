import type { RoleRelation } from '../spec/relationRoles.ts';

/** An app role with its inheritance resolved. */
export interface RoleNode {
  name: string;
  label: string;
  description?: string;
  /** Roles named in `inherits`. */
  inherits: readonly string[];
  /** Every role a holder has: itself first, then what it inherits, transitively. */
  implied: readonly string[];
  /** Roles whose holders count as holding this one (itself and every role inheriting it), spec order. */
  holders: readonly string[];
  /** Users who sign up get this role. */
  signup: boolean;
  /** Administers users and roles (may update every profile row, or inherits a role that may). */
  admin: boolean;
  /**
   * Held through a relationship (`through`), on rows, not granted: nobody holds it everywhere. Its
   * policies' rules carry the relationship (`me is <role> and ...`).
   */
  through?: RoleRelation;
}
