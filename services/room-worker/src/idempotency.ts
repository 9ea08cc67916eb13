/**
 * Idempotency memory: the reply given to each `(userId, actionId)`, so a
 * retried command gets the same answer and is never applied twice.
 *
 * Kept per seated user, and bounded per user, so nobody else's traffic can
 * push a player's answers out (issue 10: an outsider's 600 rejected actions
 * used to evict a player's acknowledged action from a shared 512-entry
 * window, and its retry applied a second time):
 *  - acknowledged actions: the user's last `LIMITS.rememberedActionIdsPerUser`;
 *  - refusals: a separate, smaller window per user, so even the player's own
 *    refused retries never evict an acknowledged one;
 *  - users without a human seat are not remembered at all: everything they
 *    send is refused, and judging a refusal again changes nothing.
 * Acknowledged actions are rebuilt from the stored record steps on a restore
 * (each step carries its actor and action id), so a retry is recognised after
 * a crash or a migration too; refusals are judged again there.
 */
import { LIMITS, type bus as wire } from '@joke/protocol';
import type { StepRec } from './room-types.ts';

export const okReply = (seq: number): wire.CommandReply => ({ ok: true, seq });

/**
 * Insertion-ordered window: remembering past `max` forgets that user's oldest entry only.
 * An acknowledgement is kept as its seq alone and its reply made again when asked: the entries
 * live for the rest of the game, and a reply object each was one more old-generation object per
 * action for every major GC to mark.
 */
class Window {
  private readonly m = new Map<string, wire.CommandReply | number>();
  constructor(private readonly max: number) {}
  get(actionId: string): wire.CommandReply | undefined {
    const r = this.m.get(actionId);
    return typeof r === 'number' ? okReply(r) : r;
  }
  set(actionId: string, reply: wire.CommandReply | number): void {
    this.m.delete(actionId);
    this.m.set(actionId, reply);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value!);
  }
  get size(): number {
    return this.m.size;
  }
}

interface UserMemory {
  acked: Window;
  refused: Window;
}

export class ActionMemory {
  private readonly users = new Map<string, UserMemory>();

  /** `seated(userId)`: does this user hold a human seat (the only users whose answers are kept)? */
  constructor(private readonly seated: (userId: string) => boolean) {}

  /** After a restore: each seat's last acknowledged actions, from the newest steps backwards. */
  static fromSteps(steps: readonly StepRec[], seated: (userId: string) => boolean): ActionMemory {
    const m = new ActionMemory(seated);
    const picked: StepRec[] = [];
    const perUser = new Map<string, number>();
    for (let k = steps.length - 1; k >= 0; k--) {
      const s = steps[k];
      if (s.i === undefined || s.a === undefined || !seated(s.a)) continue;
      const n = perUser.get(s.a) ?? 0;
      if (n >= LIMITS.rememberedActionIdsPerUser) continue;
      perUser.set(s.a, n + 1);
      picked.push(s);
    }
    // Oldest first, so the window's order matches the order they were acknowledged in.
    for (let k = picked.length - 1; k >= 0; k--) m.acknowledged(picked[k].a!, picked[k].i!, picked[k].s);
    return m;
  }

  get(userId: string, actionId: string): wire.CommandReply | undefined {
    const u = this.users.get(userId);
    return u?.acked.get(actionId) ?? u?.refused.get(actionId);
  }

  /** The action was applied as `seq`: a retry of it is answered `okReply(seq)`. */
  acknowledged(userId: string, actionId: string, seq: number): void {
    this.user(userId)?.acked.set(actionId, seq);
  }

  refused(userId: string, actionId: string, reply: wire.CommandReply): void {
    this.user(userId)?.refused.set(actionId, reply);
  }

  /** Entries held, all users together (tests: bounded by seats × per-user windows). */
  get size(): number {
    let n = 0;
    for (const u of this.users.values()) n += u.acked.size + u.refused.size;
    return n;
  }

  private user(userId: string): UserMemory | null {
    let u = this.users.get(userId);
    if (u) return u;
    if (!this.seated(userId)) return null;
    u = {
      acked: new Window(LIMITS.rememberedActionIdsPerUser),
      refused: new Window(LIMITS.rememberedRefusalsPerUser),
    };
    this.users.set(userId, u);
    return u;
  }
}
