/** Where the gateway is: /config.json from the platform, else the same host on 8081. */
export interface ClientConfig {
  gatewayUrl: string;
}

export function defaultGatewayUrl(loc: Pick<Location, 'protocol' | 'hostname'> = location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.hostname}:8081/ws`;
}

let cached: Promise<ClientConfig> | null = null;

export function loadConfig(): Promise<ClientConfig> {
  cached ??= (async () => {
    try {
      const res = await fetch(new URL('/config.json', location.href), { cache: 'no-store' });
      if (res.ok) {
        const body = (await res.json()) as Partial<ClientConfig>;
        if (typeof body.gatewayUrl === 'string' && /^wss?:\/\//.test(body.gatewayUrl))
          return { gatewayUrl: body.gatewayUrl };
      }
    } catch {
      // No config served (plain static hosting): fall back below.
    }
    return { gatewayUrl: defaultGatewayUrl() };
  })();
  return cached;
}
