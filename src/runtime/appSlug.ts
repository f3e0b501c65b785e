/** The localStorage key the embedded backend keeps an app's session token under. */
export const sessionKey = (slug: string): string => `ninefold-${slug}-session`;

/**
 * `Expense approvals` → `expense-approvals` (the app's model or spec, whichever the caller holds): names the app's database, its worker, its locks and
 * its localStorage keys. A module of its own so the entry chunk can use it without the backend.
 */
export function appSlug(app: { purpose: { name: string } }): string {
  return (
    app.purpose.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'app'
  );
}
