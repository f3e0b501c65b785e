import { everyScreenSuite } from './everyScreenSuite.ts';

everyScreenSuite('examples/tasks', { locale: 'de-DE' });
