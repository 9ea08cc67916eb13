/**
 * The spans of one batch of a room's queue: a `worker.apply` span for each command of the batch that came
 * with a trace context (the gateway traced it: @joke/bus tracing.ts), child of the gateway's span through
 * the NATS headers, and under each a `worker.snapshot` span around the batch's one snapshot write.
 *
 * State: the apply spans, open from the batch's start until its replies (with their view frames) are sent.
 * Made only when tracing is on and a command of the batch carries a trace context; an untraced batch never
 * comes here. Failure modes: a batch that throws ends its spans as failed (error name only); a write that
 * did not store (fenced out, store lost, room closed) is marked `joke.stored=false`.
 *
 * Secrecy: attributes are the room id, the action's type, the batch size and the seq — never the action's
 * cards, the state, the pile or the RNG.
 */
import { endFailed, SpanKind, startSpan, type Span } from '@joke/bus/tracing';
import type { Item } from './room-types.ts';

export class BatchTrace {
  private constructor(
    private readonly roomId: string,
    private readonly applies: Span[],
  ) {}

  /** The batch's spans, or null when none of its commands is traced. Only call it when tracing is on. */
  static of(roomId: string, batch: Item[]): BatchTrace | null {
    let applies: Span[] | null = null;
    for (const item of batch) {
      if (item.kind !== 'cmd' || item.trace === undefined) continue;
      const attributes = {
        'joke.room.id': roomId,
        'joke.action.type': actionType(item.cmd.action),
        'joke.batch.items': batch.length,
      };
      (applies ??= []).push(startSpan('worker.apply', attributes, item.trace, SpanKind.SERVER));
    }
    return applies && new BatchTrace(roomId, applies);
  }

  /** Runs the batch's snapshot write inside a `worker.snapshot` span under each apply span. */
  async snapshot(write: () => Promise<boolean>): Promise<boolean> {
    const spans = this.applies.map((a) => startSpan('worker.snapshot', { 'joke.room.id': this.roomId }, a));
    try {
      const stored = await write();
      for (const s of spans) {
        s.setAttribute('joke.stored', stored);
        s.end();
      }
      return stored;
    } catch (err) {
      for (const s of spans) endFailed(s, err);
      throw err;
    }
  }

  /** The batch is done (replies sent); `seq` is the room's after it. */
  end(seq: number): void {
    for (const a of this.applies) {
      a.setAttribute('joke.seq', seq);
      a.end();
    }
  }

  failed(err: unknown): void {
    for (const a of this.applies) endFailed(a, err);
  }
}

function actionType(action: unknown): string {
  return typeof action === 'object' && action !== null && 'type' in action && typeof action.type === 'string'
    ? action.type.slice(0, 32)
    : 'unknown';
}
