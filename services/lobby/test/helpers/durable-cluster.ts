/**
 * What the durable-event tests share: a 3-node NATS cluster of their own
 * (started before the file, stopped after), buses on one fresh prefix with
 * stream replicas 3, lobbies on one fresh schema, and a condition wait.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { pino } from 'pino';
import { NatsBus } from '@joke/bus';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { createLobby, type Lobby } from '../../src/index.ts';
import { countGame } from './count-game.ts';
import { JWT_SECRET, uniqueSchema } from './harness.ts';

export function durableCluster(name: string) {
  const prefix = `${name}_${randomBytes(4).toString('hex')}`;
  const schema = uniqueSchema(name);
  const buses: NatsBus[] = [];
  let cluster: LocalCluster | undefined;
  beforeAll(async () => {
    cluster = await startLocalCluster();
  });
  afterAll(async () => {
    for (const b of buses) await b.close().catch(() => {});
    await schema.drop();
    await cluster?.stop();
  });
  const connect = async (): Promise<NatsBus> => {
    const bus = await NatsBus.connect(cluster!.natsUrls.join(','), { prefix, durableReplicas: 3 });
    buses.push(bus);
    return bus;
  };
  const startLobby = async (): Promise<Lobby> =>
    createLobby({
      bus: await connect(),
      databaseUrl: schema.url,
      jwtSecret: JWT_SECRET,
      games: { count: countGame },
      log: pino({ level: 'silent' }),
    });
  return { schema, connect, startLobby };
}

/** Waits for a condition (60 s at most), never for a duration. */
export async function until(ok: () => Promise<boolean>, what: string): Promise<void> {
  for (const end = Date.now() + 60_000; !(await ok());) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
