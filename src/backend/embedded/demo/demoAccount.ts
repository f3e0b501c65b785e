/** One demo account the sign-in screen offers. */
export interface DemoAccount {
  /** Names the account in the demo plan (`ref(key)`); the role when absent (one account per role). */
  key?: string;
  role: string;
  email: string;
  password: string;
  name: string;
}
