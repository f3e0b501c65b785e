/** One demo account the sign-in screen offers. */
export interface DemoAccount {
  /** Names the account in the demo plan (`ref(key)`); the role when absent (one account per role). */
  key?: string;
  role: string;
  /**
   * A role held through a relationship (`roles.<name>.through`) that the app's demo data gives this
   * account on some rows (a membership, a project it leads); the sign-in screen names it.
   */
  holds?: string;
  email: string;
  password: string;
  name: string;
}
