/**
 * Idempotency memory: the reply given to each `(userId, actionId)`, the last
 * `LIMITS.rememberedActionIds` of them, so a retried command gets the same
 * answer and is not applied twice.
 */
import { LIMITS, type bus as wire } from '@joke/protocol';
import type { StepRec } from './room-types.ts';

export const okReply = (seq: number): wire.CommandReply => ({ ok: true, seq });
const replyKey = (userId: string, actionId: string): string => `${userId}\u0000${actionId}`;

export class ReplyMemory {
  /** Oldest first. */
  private readonly replies = new Map<string, wire.CommandReply>();

  /** After a restore: the accepted commands among the last steps (rejections are judged again). */
  static fromSteps(steps: readonly StepRec[]): ReplyMemory {
    const m = new ReplyMemory();
    for (const s of steps.slice(-LIMITS.rememberedActionIds))
      if (s.i !== undefined && s.a !== undefined) m.remember(s.a, s.i, okReply(s.s));
    return m;
  }

  get(userId: string, actionId: string): wire.CommandReply | undefined {
    return this.replies.get(replyKey(userId, actionId));
  }

  remember(userId: string, actionId: string, reply: wire.CommandReply): void {
    this.replies.set(replyKey(userId, actionId), reply);
    if (this.replies.size > LIMITS.rememberedActionIds) this.replies.delete(this.replies.keys().next().value!);
  }
}
