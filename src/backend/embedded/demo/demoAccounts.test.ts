import { describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/spec.ts';
import tasks from '../../../../examples/tasks/spec.ts';
import { registerDemo } from './appDemo.ts';
import { demoAccounts } from './demoAccounts.ts';

describe('demoAccounts', () => {
  it('gives one account per granted role, and none for a relationship role without demo rows', () => {
    const app = { ...tasks };
    expect(demoAccounts(app).map((a) => [a.email, a.role, a.holds])).toEqual([
      ['member@demo.test', 'member', undefined],
      ['admin@demo.test', 'admin', undefined],
    ]);
  });

  it('with demo rows, adds one per relationship role after the sign-up role, a person of that role', () => {
    const app = registerDemo({ ...tasks }, { plan: () => ({ people: [], rows: [], history: [] }) });
    expect(demoAccounts(app).map((a) => [a.key, a.email, a.password, a.role, a.holds])).toEqual([
      [undefined, 'member@demo.test', 'demo-member', 'member', undefined],
      ['orgMember', 'orgmember@demo.test', 'demo-orgMember', 'member', 'orgMember'],
      ['orgAdmin', 'orgadmin@demo.test', 'demo-orgAdmin', 'member', 'orgAdmin'],
      ['orgOwner', 'orgowner@demo.test', 'demo-orgOwner', 'member', 'orgOwner'],
      ['projectLead', 'projectlead@demo.test', 'demo-projectLead', 'member', 'projectLead'],
      [undefined, 'admin@demo.test', 'demo-admin', 'admin', undefined],
    ]);
    expect(demoAccounts(app).find((a) => a.holds === 'orgAdmin')?.name).toBe(
      'Demo Organisation administrator',
    );
  });

  it('leaves an app without relationship roles as it was', () => {
    const app = registerDemo({ ...helpdesk }, { plan: () => ({ people: [], rows: [], history: [] }) });
    expect(demoAccounts(app).map((a) => a.role)).toEqual(demoAccounts({ ...helpdesk }).map((a) => a.role));
    expect(demoAccounts(app).every((a) => a.holds === undefined)).toBe(true);
  });
});
