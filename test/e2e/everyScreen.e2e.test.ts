import { everyScreenSuite } from './everyScreenSuite.ts';

// One file per app so the two run in parallel and each stays well under the time budget.
everyScreenSuite('examples/helpdesk');
