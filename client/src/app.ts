/** Session-wide singletons: the gateway connection is shared by every table this tab opens. */
import { loadConfig } from './net/config.ts';
import { GatewayClient } from './net/gateway.ts';
import { currentToken } from './net/session.ts';

let gw: GatewayClient | null = null;

export async function gateway(): Promise<GatewayClient> {
  // A connection closed for good (signed out, token refused) is replaced, never reused.
  if (gw?.status === 'closed') gw = null;
  if (!gw) {
    const cfg = await loadConfig();
    gw ??= new GatewayClient({ url: cfg.gatewayUrl, token: currentToken });
  }
  return gw;
}

export function currentGateway(): GatewayClient | null {
  return gw;
}

/** After signing out or in as someone else the socket must say hello with the new token. */
export function resetGateway(): void {
  gw?.close();
  gw = null;
}
