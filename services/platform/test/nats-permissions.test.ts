/**
 * The chart's NATS users for real: the `authorization` block that
 * helm/joke-app renders (users per service, permissions generated from the
 * bus contract) runs in a nats-server of this test. A room worker, a
 * matchmaker and a gateway connect each as its own user; the test acts as the
 * lobby (lobby user: creates a bot table, hears it finish) and as a second
 * gateway (gateway user: joins as a spectator, receives the deliveries). The
 * gateway user may not publish a worker's delivery subject: the server refuses
 * it and nobody receives it.
 *
 * Issue 36: the streams and durable consumers are made first by `joke-streams ensure` as the `admin` user
 * (the chart's hook Job), and the services run with JETSTREAM_CREATE_STREAMS=0. Each user then tries what
 * it must not: create a stream over the room-command and createRoom subjects (the attack that broke every
 * rooms.start), create or pull another consumer, read `_INBOX.>` or another service's inbox. Every try is
 * refused by the server and leaves nothing behind.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsBus } from '@joke/bus';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import {
  NATS_USERS,
  PROTOCOL_VERSION,
  contract,
  durableStream,
  listenDurable,
  natsPermissions,
  subjects,
  wireText,
} from '@joke/protocol';
import { natsPermissionsFile, natsPermissionsJson } from '../../protocol/scripts/nats-permissions.ts';
import { render, ROOT } from './support/helm.ts';
import {
  freePort,
  ownNats,
  startService,
  statusOf,
  until,
  type OwnedServer,
  type ServiceProc,
} from './support/procs.ts';

const CHART = 'helm/joke-app';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ns = `p${randomBytes(4).toString('hex')}`;
// Like the chart's generated ones: letters first (nats-server parses a `$VAR` password as a config value).
const passwords = Object.fromEntries(NATS_USERS.map((u) => [u, `p${randomBytes(12).toString('hex')}`]));
let nats: OwnedServer;
const procs: ServiceProc[] = [];
const buses: NatsBus[] = [];
const urlOf = (user: string) => `nats://${user}:${passwords[user]}@127.0.0.1:${nats.port}`;

/** The `authorization { … }` block of the bundled NATS's nats.conf, as the chart renders it for namespace `ns`. */
function chartAuthorization(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nats-perm-'));
  try {
    const values = join(dir, 'values.yaml');
    writeFileSync(values, `keyNamespace: ${ns}\nbundled:\n  nats:\n    enabled: true\n    auth: true\n`);
    const cm = render(CHART, [values]).find((d) => d.kind === 'ConfigMap' && d.data?.['nats.conf'])!;
    const conf = cm.data!['nats.conf'];
    return conf.slice(conf.indexOf('authorization {'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  // ownNats runs JetStream, as the chart's nats.conf does: game results travel on a durable stream.
  nats = await ownNats({
    config: chartAuthorization(),
    env: Object.fromEntries(NATS_USERS.map((u) => [`NATS_PASSWORD_${u.toUpperCase()}`, passwords[u]])),
  });
  // What the chart's hook Job runs (templates/nats-streams-job.yaml), as the admin user.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'services/lobby/src/streams-cli.ts', 'ensure'],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NATS_URL: urlOf('admin'), JOKE_NAMESPACE: ns } },
  );
  expect(stdout).toMatch(/consumer lobby of joke\.v1\.room\.finished: ready/);
}, 120_000);

afterAll(async () => {
  for (const b of buses) await b.close().catch(() => {});
  for (const p of procs) await p.stop();
  await nats?.close();
});

describe('NATS users per service (helm/joke-app bundled NATS)', () => {
  it('the chart ships the permission lists generated from the contract (npm run nats-permissions)', () => {
    expect(readFileSync(natsPermissionsFile, 'utf8')).toBe(natsPermissionsJson());
    const gw = natsPermissions('gateway');
    expect(gw.publish).toContain(contract.roomCommand.pattern);
    expect(gw.publish).not.toContain(contract.gatewayDeliver.pattern);
    expect(gw.subscribe).toContain(contract.gatewayDeliver.pattern);
  });

  it('the services run as their own users: a bot table is created, watched and finished', async () => {
    const ops = { worker: await freePort(), matchmaker: await freePort(), gateway: await freePort() };
    const common = { JOKE_NAMESPACE: ns, REDIS_URL, JETSTREAM_CREATE_STREAMS: '0' };
    procs.push(
      startService('room-worker', {
        ...common,
        NATS_URL: urlOf('worker'),
        WORKER_ID: `${ns}-w0`,
        OPS_PORT: String(ops.worker),
        // Bots act at once: the table finishes in seconds.
        BOT_DELAY_MS: '0',
        BOT_JITTER_MS: '0',
      }),
      startService('matchmaker', {
        ...common,
        NATS_URL: urlOf('matchmaker'),
        MATCHMAKER_ID: `${ns}-mm`,
        OPS_PORT: String(ops.matchmaker),
      }),
      startService('gateway', {
        JOKE_NAMESPACE: ns,
        JETSTREAM_CREATE_STREAMS: '0',
        NATS_URL: urlOf('gateway'),
        GATEWAY_ID: `${ns}-gw`,
        PORT: '0',
        OPS_PORT: String(ops.gateway),
        JWT_SECRET: DEV_JWT_SECRET,
      }),
    );
    const out = () => procs.map((p) => `[${p.name}] ${p.out.join('')}`).join('\n');
    for (const port of Object.values(ops))
      // Four processes start from source (tsx) at once: on a loaded box one took past a minute.
      await until(async () => (await statusOf(`http://127.0.0.1:${port}/readyz`)) === 200, 150_000, out());

    const lobby = await NatsBus.connect(urlOf('lobby'), { prefix: ns, createStreams: false });
    const gateway = await NatsBus.connect(urlOf('gateway'), { prefix: ns });
    buses.push(lobby, gateway);
    const roomId = `${ns}-room`;
    const finished: string[] = [];
    const parked: string[] = [];
    // As the lobby consumes results: the durable consumer of the roomFinished stream (pull + ack), which parks
    // what it cannot handle in the dead-letter stream (its own `dead.` subject).
    await listenDurable(
      lobby,
      contract.roomFinished,
      async (m) => {
        finished.push(m.roomId);
      },
      undefined,
      (p) => parked.push(p.code),
    );
    const deliveries: number[] = [];
    gateway.subscribe(subjects.gatewayDeliver(`${ns}-spectator`), () => deliveries.push(Date.now()));
    await lobby.flush();
    await gateway.flush();
    const players = [0, 1, 2].map((i) => ({ id: `${ns}-bot${i}`, name: `봇${i}`, bot: true }));
    // The matchmaker may not have heard the worker's heartbeat yet: retry until it places the table.
    let placed: any = null;
    await until(
      async () => {
        const req = { v: 1, room: { roomId, game: 'one-card', options: { mode: 'classic' }, players } };
        const reply = await lobby.request(subjects.createRoom, JSON.stringify(req), 5000).catch(() => null);
        placed = reply && JSON.parse(wireText(reply));
        return placed?.ok === true;
      },
      60_000,
      `createRoom: ${JSON.stringify(placed)}\n${out()}`,
    );
    const join = JSON.parse(
      wireText(
        await gateway.request(
          subjects.roomJoin(roomId),
          JSON.stringify({ v: PROTOCOL_VERSION, userId: `${ns}-viewer`, spectate: true, gatewayId: `${ns}-spectator` }),
          5000,
        ),
      ),
    );
    expect(join.ok, JSON.stringify(join)).toBe(true);
    await until(() => finished.includes(roomId), 120_000, `the bot table to finish\n${out()}`);
    expect(deliveries.length).toBeGreaterThan(0);
    // A result that does not decode, published as the worker: parked by the lobby user, read back by the admin.
    const worker = await NatsBus.connect(urlOf('worker'), { prefix: ns, createStreams: false });
    const admin = await NatsBus.connect(urlOf('admin'), { prefix: ns });
    buses.push(worker, admin);
    await worker.publishDurable(subjects.roomFinished, '{"v":1}', 'broken');
    await until(() => parked.length > 0, 30_000, 'the broken result parked');
    expect(parked).toEqual(['MALFORMED']);
    expect(await admin.deadLetters(subjects.roomFinished).count()).toBe(1);
    expect(out()).not.toMatch(/Permissions Violation/i);
  }, 360_000);

  it('the gateway user may not publish a worker delivery subject: refused, and nobody receives it', async () => {
    const gateway = await NatsBus.connect(urlOf('gateway'), { prefix: ns });
    const worker = await NatsBus.connect(urlOf('worker'), { prefix: ns });
    buses.push(gateway, worker);
    const errors: string[] = [];
    void (async () => {
      for await (const s of gateway.nc.status()) if (s.type === 'error') errors.push(String(s.error));
    })();
    const target = `${ns}-victim`;
    const received: string[] = [];
    // Another gateway's inbox for deliveries (the gateway user may subscribe to it).
    const victim = await NatsBus.connect(urlOf('gateway'), { prefix: ns });
    buses.push(victim);
    victim.subscribe(subjects.gatewayDeliver(target), (m) => received.push(wireText(m.data)));
    await victim.flush();
    gateway.publish(subjects.gatewayDeliver(target), 'forged');
    await gateway.flush();
    await until(() => errors.length > 0, 30_000, 'the permission error');
    expect(errors.join('\n')).toMatch(/permissions violation for publish to "[^"]*gw\.[^"]+\.deliver"/i);
    // A publish the worker user may make reaches the same subscriber, so the silence above is the refusal.
    worker.publish(subjects.gatewayDeliver(target), 'real');
    await worker.flush();
    await until(() => received.length > 0, 30_000, 'the worker delivery');
    expect(received).toEqual(['real']);
  }, 120_000);

  it('each user is refused streams, consumers and inboxes that are not its own (the stream-creation attack)', async () => {
    const ev = durableStream(`${ns}.${subjects.roomFinished}`);
    // A stream over the room commands and createRoom: it swallowed every rooms.start until deleted.
    const attack = JSON.stringify({
      name: 'HIJACK',
      subjects: [`${ns}.${contract.roomCommand.pattern}`, `${ns}.${subjects.createRoom}`],
    });
    const forbidden: Record<string, { publish: [string, string][]; subscribe: string[] }> = {
      worker: {
        publish: [
          ['$JS.API.STREAM.CREATE.HIJACK', attack],
          [`$JS.API.CONSUMER.CREATE.${ev}.mine`, '{}'],
          [`$JS.API.STREAM.DELETE.${ev}`, ''],
        ],
        subscribe: ['_INBOX.>', '_INBOX.lobby.x', `${ns}.${subjects.roomFinished}`],
      },
      lobby: {
        publish: [
          ['$JS.API.STREAM.CREATE.HIJACK', attack],
          [`$JS.API.CONSUMER.CREATE.${ev}.mine`, '{}'],
          [`$JS.API.CONSUMER.DURABLE.CREATE.${ev}.mine`, '{}'],
          [`$JS.API.CONSUMER.MSG.NEXT.${ev}.mine`, '{"batch":1}'],
          [`$JS.API.CONSUMER.DELETE.${ev}.lobby`, ''],
        ],
        subscribe: ['_INBOX.>', '_INBOX.gateway.x', '_INBOX.worker.>'],
      },
      gateway: {
        publish: [
          ['$JS.API.STREAM.CREATE.HIJACK', attack],
          [`$JS.API.CONSUMER.MSG.NEXT.${ev}.lobby`, '{"batch":1}'],
        ],
        subscribe: ['_INBOX.>', '_INBOX.matchmaker.>', '_INBOX.lobby.x'],
      },
      matchmaker: {
        publish: [['$JS.API.STREAM.CREATE.HIJACK', attack]],
        subscribe: ['_INBOX.>', '_INBOX.gateway.>'],
      },
    };
    for (const [user, tries] of Object.entries(forbidden)) {
      const bus = await NatsBus.connect(urlOf(user), { prefix: ns, createStreams: false });
      buses.push(bus);
      const errors: string[] = [];
      void (async () => {
        for await (const st of bus.nc.status()) if (st.type === 'error') errors.push(String(st.error));
      })();
      for (const subject of tries.subscribe) bus.nc.subscribe(subject, { callback: () => {} });
      for (const [subject, body] of tries.publish) bus.nc.publish(subject, body);
      await bus.flush();
      const expected = [
        ...tries.subscribe.map((s) => `subscription to "${s}"`),
        ...tries.publish.map(([s]) => `publish to "${s}"`),
      ];
      const refused = (what: string) => errors.some((e) => e.toLowerCase().includes(what.toLowerCase()));
      await until(() => expected.every(refused), 30_000, `${user}: refusals`).catch(() => {
        throw new Error(`${user}: not refused: ${expected.filter((e) => !refused(e)).join(', ')}`);
      });
    }
    // Nothing was made: the admin sees no hijacking stream and only the lobby's consumer on the stream.
    const admin = await NatsBus.connect(urlOf('admin'), { prefix: ns });
    buses.push(admin);
    const reply = (subject: string) => admin.nc.request(subject, '', { timeout: 5000 }).then((m) => m.json<any>());
    expect((await reply('$JS.API.STREAM.INFO.HIJACK')).error?.code).toBe(404);
    expect((await reply(`$JS.API.CONSUMER.NAMES.${ev}`)).consumers).toEqual(['lobby']);
    // A room command still reaches nobody's stream: the subject is served by core NATS only.
    expect((await reply('$JS.API.STREAM.NAMES')).streams.sort()).toEqual(
      ['closed', 'finished', 'playerLeft']
        .flatMap((e) => {
          const name = durableStream(`${ns}.joke.v1.room.${e}`);
          return [name, `${name}_dead`];
        })
        .sort(),
    );
    // What each user may do is the generated list, exactly (no wildcard over another's streams or inboxes).
    for (const user of NATS_USERS) {
      const perms = natsPermissions(user);
      expect(perms.subscribe.filter((s) => s.startsWith('_INBOX'))).toEqual([`_INBOX.${user}.>`]);
      if (user !== 'admin')
        expect(
          perms.publish.filter(
            (s) => /STREAM\.|CONSUMER\.(CREATE|DURABLE|DELETE)|>$/.test(s) && s.startsWith('$JS.API'),
          ),
        ).toEqual([]);
    }
  }, 120_000);
});
