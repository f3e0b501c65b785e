// Date, datetime and duration texts are read in the specification layer (constants are checked
// there, below the rule language); re-exported for the rule checker and the document.
export {
  parseDateText,
  parseDatetimeText,
  parseDurationText,
  parseTemporal,
  TEMPORAL_CONSTANT_FORMS,
} from '../spec/temporal.ts';
