import { readFileSync } from 'node:fs';
import { compileMigration } from '../src/sql/compileMigration.ts';
const spec = JSON.parse(readFileSync('scripts/ce.tmp.json', 'utf8'));
const sql = compileMigration(spec);
const lines = sql.split('\n');
lines.forEach((l, i) => { if (/\belse\b/.test(l)) console.log(lines.slice(Math.max(0, i - 6), i + 3).join('\n') + '\n----'); });
console.log(JSON.stringify(spec.roles.permissions));
