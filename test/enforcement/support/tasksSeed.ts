import type { SeedUser, SeedValues } from './seed.ts';

const ROLES = ['owner', 'admin', 'member'] as const;

function isoDate(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** Two capital letters from a number: a project code its pattern accepts (`^[A-Z]{2,6}$`). */
function code(n: number, first = 65 + (n % 26)): string {
  return `${String.fromCharCode(first)}${String.fromCharCode(65 + (Math.floor(n / 26) % 26))}`;
}

/**
 * Seeding for examples/tasks (the multi-tenant app). `values`: each organisation gets one
 * membership, of a different user with a different role in turn (so every user is a member of
 * some organisations and not of others, an owner in one, an administrator in another); its rate
 * (but the last organisation's: a member without a rate, for create cases), its projects' lead and
 * its tasks' assignee are that member (rules demand members); project codes fit their pattern;
 * projects are not archived (no task could be added); time entries spread over the last four
 * weeks (at most 12 hours a day per person). `fresh`: a create payload copied from a seeded row,
 * made new where a key over several fields would repeat it (another person's membership, the rate
 * of the member without one, a new project name and code).
 *
 * @example
 * const own = tasksSeed(); await seedRows(db, tasks, users, own.values);
 */
export function tasksSeed(): {
  values: SeedValues;
  fresh(entity: string, values: Record<string, unknown>): Record<string, unknown>;
} {
  const memberOf = new Map<string, SeedUser>();
  const orgs: string[] = [];
  let everyone: readonly SeedUser[] = [];
  let fresh = 0;
  const values: SeedValues = (entity, n, { parents, users }) => {
    everyone = users;
    const org =
      parents.organisation?.id ?? parents.project?.refs.organisation ?? parents.task?.refs.organisation;
    const member = org ? memberOf.get(org) : undefined;
    switch (entity) {
      case 'membership': {
        const i = orgs.length;
        const person = users[(i + 1) % users.length] as SeedUser;
        if (org) {
          memberOf.set(org, person);
          orgs.push(org);
        }
        return { person: person.id, role: ROLES[i % ROLES.length] };
      }
      case 'rate':
        return org === orgs[orgs.length - 1] ? null : { person: member?.id ?? null };
      case 'project':
        return { code: code(n), lead: member?.id ?? null, archived: false };
      case 'task':
        return { assignee: member?.id ?? null };
      case 'timeEntry':
        return { date: isoDate(n % 28) };
      default:
        return {};
    }
  };
  return {
    values,
    fresh(entity, payload) {
      fresh++;
      const org = typeof payload.organisation === 'string' ? payload.organisation : undefined;
      switch (entity) {
        case 'membership': {
          const taken = org ? memberOf.get(org)?.id : undefined;
          const other = everyone.find((u) => u.id !== taken && u.id !== payload.person);
          return { ...payload, person: other?.id ?? payload.person };
        }
        case 'rate': {
          const last = orgs[orgs.length - 1];
          return last ? { ...payload, organisation: last, person: memberOf.get(last)?.id } : payload;
        }
        case 'project':
          return { ...payload, name: `${String(payload.name)} new ${fresh}`, code: code(fresh, 90) };
        default:
          return payload;
      }
    },
  };
}
