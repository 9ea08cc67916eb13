/**
 * docs/configuration.md against the code: every row each service's `--help-config` prints (the
 * `describe()` of its config tables) is in the file, cell for cell, so a new or changed variable
 * cannot be left out of the reference. Reads files and config definitions only.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gatewayEnv, shutdownEnv } from '@joke/gateway';
import { autoRebalanceConfig, matchmakerConfig } from '@joke/matchmaker';
import { workerConfig } from '@joke/room-worker';
import { lobbyEnv } from '@joke/lobby/config';
import { platformConfig } from '../src/config.ts';

/** A markdown table's data rows as their trimmed cells joined, so column padding does not matter. */
const rows = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('| `'))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim())
        .join(' | '),
    );

const doc = new Set(
  rows(readFileSync(fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url)), 'utf8')),
);

describe('docs/configuration.md', () => {
  const tables: [string, string][] = [
    ['room worker', workerConfig.describe()],
    ['matchmaker', matchmakerConfig.describe()],
    ['auto-rebalance', autoRebalanceConfig.describe()],
    ['gateway', gatewayEnv.describe()],
    ['gateway shutdown', shutdownEnv.describe()],
    ['lobby', lobbyEnv.describe()],
    ['platform', platformConfig.describe()],
  ];
  for (const [name, table] of tables) {
    it(`has every variable of the ${name} as --help-config prints it`, () => {
      const printed = rows(table);
      expect(printed.length).toBeGreaterThan(0);
      // A missing row: run `npm run config-doc` to write the tables from the code.
      expect(printed.filter((r) => !doc.has(r))).toEqual([]);
    });
  }
});
