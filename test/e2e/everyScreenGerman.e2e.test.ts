import { everyScreenSuite } from './everyScreenSuite.ts';

// The browser's language German: every screen, every role, light and dark, 1280 and 360 px (with
// the language button in the header), axe-clean and nothing wider than the phone.
everyScreenSuite('examples/helpdesk', { locale: 'de-DE' });
