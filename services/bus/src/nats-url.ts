/**
 * NATS_URL may carry credentials, as REDIS_URL and DATABASE_URL do
 * (`nats://gateway:secret@nats:4222,nats://gateway:secret@nats-1:4222`), so a
 * Kubernetes Secret holds one value per service. nats.js does not read
 * credentials from server URLs: they are taken out here and passed as
 * user/pass (the first URL that has them wins; all servers share one user).
 */
export interface NatsServers {
  servers: string[];
  user?: string;
  pass?: string;
}

export function natsServers(url: string): NatsServers {
  let user: string | undefined;
  let pass: string | undefined;
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^([a-z]+:\/\/)([^@/]*)@(.*)$/i.exec(s);
      if (!m) return s;
      const [name, secret] = m[2].split(':');
      if (user === undefined && name) {
        user = decodeURIComponent(name);
        pass = secret === undefined ? undefined : decodeURIComponent(secret);
      }
      return `${m[1]}${m[3]}`;
    });
  return { servers, ...(user !== undefined ? { user } : {}), ...(pass !== undefined ? { pass } : {}) };
}
