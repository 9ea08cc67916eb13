/**
 * The product stack for browser tests: the embedded platform (bus, stores,
 * matchmaker, room worker, gateway, HTTP server) on free ports, with the lobby
 * and the built client mounted on its HTTP server exactly as `npm start`
 * serves them: /trpc (lobby), /config.json and the static client.
 * If the platform already mounts a lobby itself, that one is used.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLobby, type Lobby } from '@joke/lobby';
import { startPlatform, type Platform } from '@joke/platform';
import { pino } from 'pino';
import { clientHandler } from '../../src/serve.ts';

const clientDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the client with vite (≈2 s) into its own directory, so the test runs
 * the current code and never races another build over client/dist.
 */
export function buildClient(outDir = mkdtempSync(join(tmpdir(), 'joke-client-'))): string {
  const r = spawnSync(`${repoRoot}node_modules/.bin/vite`, ['build', '--logLevel', 'warn', '--outDir', outDir], {
    cwd: clientDir,
    stdio: 'inherit',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status ?? r.signal})`);
  return outDir;
}

export interface Stack {
  url: string;
  gatewayUrl: string;
  platform: Platform;
  close(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

export async function startStack(
  opts: { botDelayMs?: number; botJitterMs?: number; clientDir?: string } = {},
): Promise<Stack> {
  const platform = await startPlatform({
    port: 0,
    gatewayPort: 0,
    natsUrl: '',
    redisUrl: '',
    logLevel: 'warn',
    botDelayMs: opts.botDelayMs ?? 60,
    botJitterMs: opts.botJitterMs ?? 40,
  });
  let lobby: Lobby | null = null;
  try {
    // Mount only what the platform does not serve itself yet (the lead wires both into `npm start`).
    if (!(await answers(`${platform.httpUrl}/trpc/games.list`))) {
      lobby = await createLobby({
        bus: platform.bus,
        jwtSecret: platform.config.jwtSecret,
        databaseUrl: process.env.JOKE_TEST_DATABASE_URL,
        log: pino({ level: 'warn' }),
      });
      platform.mountHttp('/trpc', lobby.handler);
    }
    if (!(await answers(`${platform.httpUrl}/config.json`)))
      platform.mountHttp('/', clientHandler({ dir: opts.clientDir, gatewayUrl: platform.gatewayUrl }));
  } catch (e) {
    await platform.close();
    throw e;
  }
  return {
    url: platform.httpUrl,
    gatewayUrl: platform.gatewayUrl,
    platform,
    async close() {
      await lobby?.close();
      await platform.close();
    },
  };
}
