// Rewrites the generated parts of the chart: helm/joke-app/README.md (values.yaml keys and comments, every
// service option) and the `config` maps of values.schema.json (one property per option a service reads).
// Run after adding an option or a value: `npm run chart-readme`. The chart test fails while either is stale.
// Needs tsx (the option tables are TypeScript): node --import tsx scripts/chart-readme.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { chartReadme, withConfigSchemas } from '../services/platform/test/support/chart-options.ts';

const chart = new URL('../helm/joke-app/', import.meta.url);
const schemaFile = new URL('values.schema.json', chart);
const schema = withConfigSchemas(JSON.parse(readFileSync(schemaFile, 'utf8')));
writeFileSync(schemaFile, JSON.stringify(schema, null, 2) + '\n');
writeFileSync(new URL('README.md', chart), chartReadme(readFileSync(new URL('values.yaml', chart), 'utf8')));
console.log('helm/joke-app/README.md and values.schema.json config maps written');
