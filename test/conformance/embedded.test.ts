import { describe } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { assembleEmbedded } from '../../src/backend/embedded/assembleEmbedded.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { demoCredentials } from './accounts.ts';
import { helpdeskSample, helpdeskScenarios } from './helpdesk.ts';
import { type ConformanceOptions, runConformance } from './runConformance.ts';

// The embedded adapter on in-process PGlite (memory://), each spec's migration and demo accounts.
function onEmbedded(spec: AppSpec, rest: Pick<ConformanceOptions, 'sample' | 'scenarios'>): void {
  runConformance(spec, {
    makeBackend: ({ now }) => assembleEmbedded({ spec, now, demo: 'accounts' }),
    accounts: demoCredentials(spec),
    controlsClock: true,
    ...rest,
  });
}

describe('helpdesk', () => onEmbedded(helpdesk, { sample: helpdeskSample, scenarios: helpdeskScenarios }));

// The same contract on another spec: nothing in the generic checks is the helpdesk's.
describe('expenses', () => onEmbedded(expenses, { sample: { entity: 'claim', field: 'title', values: {} } }));

// The multi-tenant app: anyone may found an organisation (and reads the ones they founded).
describe('tasks', () => onEmbedded(tasks, { sample: { entity: 'organisation', field: 'name', values: {} } }));
