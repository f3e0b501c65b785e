import { everyScreenSuite } from './everyScreenSuite.ts';

everyScreenSuite('examples/expenses', { locale: 'de-DE' });
