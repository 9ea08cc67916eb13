/**
 * Writes helm/joke-app/files/nats-permissions.json, the NATS users of the chart,
 * from the bus contract (src/permissions.ts): `npm run nats-permissions` at the root.
 * Subjects are written without a namespace; the chart puts `keyNamespace.` in front (and `keyNamespace_` in
 * front of the stream names, `EV_joke_v1_…`).
 * The chart test fails when this file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NATS_USERS, natsPermissions } from '../src/permissions.ts';

export const natsPermissionsFile = fileURLToPath(
  new URL('../../../helm/joke-app/files/nats-permissions.json', import.meta.url),
);

export function natsPermissionsJson(): string {
  const users = Object.fromEntries(NATS_USERS.map((u) => [u, natsPermissions(u)]));
  return `${JSON.stringify(users, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(natsPermissionsFile, natsPermissionsJson());
  console.log(`wrote ${natsPermissionsFile}`);
}
