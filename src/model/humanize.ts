// The humanizer sits in the specification layer (the spec's own texts and the rule descriptions
// use it, and both are below the model); re-exported here for the model's readers.
export { humanize } from '../spec/humanize.ts';
