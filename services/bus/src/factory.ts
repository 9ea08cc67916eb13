/** The bus a service runs on: NATS when a URL is given, else the in-process bus of the single-process platform. */
import { InProcessBus } from './in-process.ts';
import { NatsBus } from './nats.ts';
import type { Bus } from './types.ts';

export interface BusTarget {
  natsUrl?: string;
  namespace?: string;
  /** Connection name shown by the NATS server (monitoring). */
  name?: string;
  onHandlerError?: (err: unknown, subject: string) => void;
}

/** NATS when `natsUrl` (or NATS_URL) is set, else a fresh in-process bus. */
export async function createBus(target: BusTarget = {}): Promise<Bus> {
  const url = target.natsUrl ?? process.env.NATS_URL ?? '';
  const prefix = target.namespace ?? process.env.JOKE_NAMESPACE ?? '';
  if (url) return NatsBus.connect(url, { prefix, name: target.name, onHandlerError: target.onHandlerError });
  return new InProcessBus({ prefix, onHandlerError: target.onHandlerError });
}
