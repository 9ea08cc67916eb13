/**
 * The built client (index.html + harness.html) on a local HTTP server, for
 * browser tests that render tables from engines running in the page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientHandler } from '@joke/web';
import { builtClient } from './stack.ts';

export interface HarnessServer {
  base: string;
  close(): Promise<void>;
}

export async function startHarnessServer(): Promise<HarnessServer> {
  const dir = builtClient();
  const server: Server = createServer(clientHandler({ dir, gatewayUrl: 'ws://127.0.0.1:9/ws', devPages: true }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
