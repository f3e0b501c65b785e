/**
 * A first state chosen by a rule (issue 32, item 4: `initialWhen`), on PGlite and on the
 * PostgreSQL server: "an order starts approved when its total is under its department's approval
 * limit, otherwise pending". The insert trigger chooses the state whatever the client sends, reads
 * the department even for a writer who may not read departments, and the browser's preview
 * (`initialStateOf` over the rows it loaded) names the same state on a grid of totals and limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDoc } from '../../src/doc/renderDoc.ts';
import { importDoc } from '../../src/import/importDoc.ts';
import { normalizeSpec } from '../../src/import/normalizeSpec.ts';
import { resolve } from '../../src/model/resolve.ts';
import { hopData, initialStateHops, initialStateOf } from '../../src/runtime/initialState.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { orders } from './support/orders.ts';

const backends = await enforcementBackends('initialState.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

const model = resolve(orders);
const LIMITS = [null, 0, 100, 100.5];
const TOTALS = [-1, 0, 99.99, 100, 100.49, 100.5, 1000];

describe.each(backends)('an initial state chosen by a rule on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let clerk: string;
  let auditor: string;
  const departments = new Map<number | null, { id: string; row: Record<string, unknown> }>();
  beforeAll(async () => {
    db = await backend.open(orders);
    clerk = await createUser(db, 'is.clerk@example.com', { roles: ['clerk'], meta: { name: 'Clerk' } });
    auditor = await createUser(db, 'is.auditor@example.com', { roles: ['auditor'], meta: { name: 'Aud' } });
    for (const [i, limit] of LIMITS.entries()) {
      const r = await db.query<{ id: string }>(
        'insert into public.department (name, approval_limit) values ($1, $2) returning id',
        [`Dept ${i}`, limit],
      );
      const id = r.rows[0]?.id as string;
      departments.set(limit, { id, row: { id, name: `Dept ${i}`, approvalLimit: limit } });
    }
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const file = async (user: string, total: number, department: string | null, status?: string) => {
    const cols = ['title', 'total', 'department', ...(status ? ['status'] : [])];
    const values = ['Paper', total, department, ...(status ? [status] : [])];
    await db.asUser(user, (q) =>
      q.query(
        `insert into public.purchase (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      ),
    );
    const r = await db.query<{ status: string }>(
      'select status from public.purchase where title = $1 order by created_at desc limit 1',
      ['Paper'],
    );
    return r.rows[0]?.status;
  };

  it('starts each order as the rules say, and the browser’s preview agrees', async () => {
    const hops = initialStateHops(model, 'purchase');
    expect(hops).toEqual([{ field: 'department', entity: 'department' }]);
    let cases = 0;
    for (const limit of [...LIMITS, 'none' as const]) {
      const dept = limit === 'none' ? null : (departments.get(limit) ?? null);
      for (const total of TOTALS) {
        const got = await file(clerk, total, dept?.id ?? null);
        const rows = new Map(dept ? [[`department/${dept.id}`, dept.row]] : []);
        const preview = initialStateOf(model, 'purchase', {
          user: { id: clerk, roles: ['clerk'] },
          row: { title: 'Paper', total, department: dept?.id ?? null, requester: clerk },
          data: hopData(rows),
        });
        const expected =
          total < 0 ? 'rejected' : typeof limit === 'number' && total < limit ? 'approved' : 'pending';
        expect({ limit, total, got, preview }).toEqual({ limit, total, got: expected, preview: expected });
        cases += 1;
      }
    }
    expect(cases).toBe((LIMITS.length + 1) * TOTALS.length);
  });

  it('does not let a client choose the state', async () => {
    const high = departments.get(100)?.id ?? null;
    // The status column is not the client's to write: refused, or the trigger's choice stands.
    const outcome = await file(clerk, 5000, high, 'approved').then(
      (s) => s,
      () => 'refused',
    );
    expect(['pending', 'refused']).toContain(outcome);
  });

  it('reads the department for a writer who may not read departments', async () => {
    const dept = departments.get(100);
    expect(await file(auditor, 50, dept?.id ?? null)).toBe('approved');
    // The browser, without the department row, does not guess: the preview needs it.
    const preview = initialStateOf(model, 'purchase', {
      user: { id: auditor, roles: ['auditor'] },
      row: { title: 'Paper', total: 50, department: dept?.id ?? null, requester: auditor },
    });
    expect(preview).toBe('undecidable');
  });
});

describe('the document of an initial state chosen by a rule', () => {
  it('says it in words and reads back into the same specification', () => {
    const md = renderDoc(orders);
    expect(md).toContain('New orders start as **Pending** unless one of these holds (the first that does):');
    expect(md).toMatch(/- \*\*Approved\*\* when .*\(`total < department\.approvalLimit`\)/);
    expect(md).toContain('[*] --> approved');
    const r = importDoc(md);
    expect(r.draft, JSON.stringify(r.diagnostics.slice(0, 3))).not.toBeNull();
    expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(orders));
    expect(renderDoc(r.draft as AppSpec)).toBe(md);
  });

  it('reports a starting state it cannot read, at its line', () => {
    const md = renderDoc(orders).replace('- **Approved** when', '- Approved when');
    const r = importDoc(md);
    expect(r.diagnostics, JSON.stringify(r.diagnostics)).toContainEqual(
      expect.objectContaining({ path: 'states.purchase.initialWhen[1]', severity: 'error' }),
    );
  });
});
