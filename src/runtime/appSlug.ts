import type { AppSpec } from '../spec/types.ts';

/**
 * `Expense approvals` → `expense-approvals`: names the app's database, its worker, its locks and
 * its localStorage keys. A module of its own so the entry chunk can use it without the backend.
 */
export function appSlug(spec: AppSpec): string {
  return (
    spec.purpose.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'app'
  );
}
