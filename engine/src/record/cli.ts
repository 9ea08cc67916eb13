/** `npm run verify -- record.json [more.json…]`: replays records and checks their commitments. */
import { readFileSync } from 'node:fs';
import { games } from '../games/index.ts';
import { verifyRecord, type GameRecord } from './record.ts';

const files = process.argv.slice(2).filter((a) => a !== '--');
if (files.length === 0) {
  console.error('usage: npm run verify -- <record.json> [...]');
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  const record = JSON.parse(readFileSync(file, 'utf8')) as GameRecord;
  const game = games[record.game as keyof typeof games];
  if (!game) {
    console.log(`${file}: unknown game ${record.game}`);
    failed++;
    continue;
  }
  const out = verifyRecord(game, record);
  if (!out.ok) failed++;
  console.log(
    `${file}: ${out.ok ? 'OK' : 'FAILED'} (${out.steps} steps)${out.problems.map((p) => `\n  - ${p}`).join('')}`,
  );
}
console.log(JSON.stringify({ records: files.length, verified: files.length - failed, failed }));
process.exit(failed ? 1 : 0);
