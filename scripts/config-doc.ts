/**
 * `npm run config-doc`: rewrites the variable tables of docs/configuration.md from each service's
 * `--help-config` table (the zod-validated option tables), so a new option reaches the reference by
 * running this, not by hand. Prose outside the tables is kept; a section this script does not know
 * is left as it is. services/platform/test/docs-config.test.ts fails when the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gatewayEnv, shutdownEnv } from '@joke/gateway';
import { autoRebalanceConfig, matchmakerConfig } from '@joke/matchmaker';
import { workerConfig } from '@joke/room-worker';
import { lobbyEnv } from '@joke/lobby/config';
import { platformConfig } from '../services/platform/src/config.ts';

const file = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

/** Section heading prefix → the tables printed under it, in order. */
const sections: [string, [caption: string, table: string][]][] = [
  ['## room worker', [['', workerConfig.describe()]]],
  [
    '## matchmaker',
    [
      ['', matchmakerConfig.describe()],
      ['Automatic rebalancing (one elected replica):', autoRebalanceConfig.describe()],
    ],
  ],
  [
    '## gateway',
    [
      ['', gatewayEnv.describe()],
      ['Shutdown (SIGTERM):', shutdownEnv.describe()],
    ],
  ],
  ['## lobby', [['', lobbyEnv.describe()]]],
  ['## platform', [['', platformConfig.describe()]]],
];

/** The rows of a printed table (header and rule included), one string each. */
const tableLines = (table: string): string[] => table.split('\n').filter((l) => l.trim().startsWith('|'));

const lines = readFileSync(file, 'utf8').split('\n');
const out: string[] = [];
for (let i = 0; i < lines.length; i++) {
  const section = sections.find(([head]) => lines[i].startsWith(head));
  out.push(lines[i]);
  if (!section) continue;
  // The section's prose is kept; its first table block (and any caption line this script wrote before
  // a later table) is replaced by every printed table of the section, each after its caption.
  let j = i + 1;
  const body: string[] = [];
  while (j < lines.length && !lines[j].startsWith('## ')) body.push(lines[j++]);
  const captions = new Set(section[1].map(([c]) => c).filter(Boolean));
  const rebuilt: string[] = [];
  let written = false;
  for (let k = 0; k < body.length; k++) {
    if (captions.has(body[k].trim())) continue;
    if (!body[k].trim().startsWith('|')) {
      // A blank line left between two table blocks collapses into the ones written below.
      if (!(written && body[k].trim() === '' && rebuilt.at(-1)?.trim() === '')) rebuilt.push(body[k]);
      continue;
    }
    while (
      k + 1 < body.length &&
      (body[k + 1].trim().startsWith('|') ||
        captions.has(body[k + 1].trim()) ||
        (body[k + 1].trim() === '' && body[k + 2]?.trim().startsWith('|')) ||
        (body[k + 1].trim() === '' && captions.has(body[k + 2]?.trim() ?? '')))
    )
      k++;
    if (written) continue;
    written = true;
    section[1].forEach(([caption, table], n) => {
      if (n > 0) rebuilt.push('');
      if (caption) rebuilt.push(caption, '');
      rebuilt.push(...tableLines(table));
    });
  }
  out.push(...rebuilt);
  i = j - 1;
}
writeFileSync(file, out.join('\n'));
console.log('docs/configuration.md tables written from --help-config');
