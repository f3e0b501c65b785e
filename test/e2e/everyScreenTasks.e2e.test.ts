import { everyScreenSuite } from './everyScreenSuite.ts';

everyScreenSuite('examples/tasks');
