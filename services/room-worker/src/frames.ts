/**
 * What the worker feeds the frame encoders of `@joke/protocol/wire` (which write every frame's
 * bytes, header order and all). Frames are built by string concatenation around JSON text encoded once per
 * transition wherever viewers share it: the presence list, the result, and the
 * members of the view every viewer of the state sees alike (the engine's
 * `viewParts.shared`); only each viewer's own members (hand, legal actions, …)
 * and events are encoded per viewer, and never kept: a text kept from one
 * action of a room to its next outlives the young generation and is garbage
 * of the old one (see `StateViews.ownOpen`). The members fixed for the whole game
 * (`viewParts.fixed`: game, options, seats…) are encoded once per game
 * (`FixedMembers`) and go, as the frame's `fixed` member, only into the frames
 * of viewers that may not have them yet (deliveries.ts decides which); the
 * presence list likewise goes only to viewers that may not hold the current
 * one. The output is exactly a `view` ServerMessage (`ViewFrame`); the byte
 * order the bots rely on is kept by the encoder (client-wire.ts).
 */
import type { AnyGame, GameEvent, PlayerId } from '@joke/engine';
import { encodeView, encodeViewBytes, type ViewRole } from '@joke/protocol/wire';

/** A whole view frame as text (`@joke/protocol/wire` writes it; this names the worker's arguments). */
export function viewFrame(
  roomIdJson: string,
  seq: number,
  role: ViewRole,
  viewJson: string,
  eventsJson: string,
  presenceJson: string | null,
  resultJson: string | null,
  fixedJson: string | null = null,
): string {
  return encodeView(roomIdJson, seq, role, viewJson, { eventsJson, presenceJson, resultJson, fixedJson });
}

/**
 * The JSON of a game's fixed view members (`viewParts.fixed`), encoded once per game: a state
 * whose fixed members are the very values of the last state's (the engine keeps options, players…
 * as they are from one state to the next) reuses the last text without encoding; otherwise they
 * are encoded again (Deliveries compares the text, so equal members re-encoded send nothing). null for a game without
 * view parts or with nothing fixed (its frames never carry `fixed`).
 */
export class FixedMembers {
  private values: unknown[] | null = null;
  private text: string | null = null;

  constructor(private readonly game: AnyGame) {}

  json(state: unknown): string | null {
    const parts = this.game.viewParts;
    if (parts === undefined) return null;
    const fixed = parts.fixed(state) as Record<string, unknown>;
    const values = Object.values(fixed);
    const last = this.values;
    if (last !== null && last.length === values.length && values.every((x, i) => x === last[i])) return this.text;
    this.values = values;
    this.text = values.length === 0 ? null : JSON.stringify(fixed);
    return this.text;
  }
}

/**
 * One object's JSON from the JSON of two objects with no member in common:
 * members are spliced as text, `{` + the first's + `,` + the second's + `}`.
 * The viewer's own members go first, so a bot reading bytes finds its `legal`
 * flags a few hundred bytes in (load-tests/src/frames.ts); JSON.parse does not
 * care about member order.
 */
export function joinObjects(firstJson: string, secondJson: string): string {
  if (firstJson.length === 2) return secondJson;
  if (secondJson.length === 2) return firstJson;
  return firstJson.slice(0, -1) + ',' + secondJson.slice(1);
}

/**
 * The views of one state as JSON, without the fixed members (`FixedMembers`): the shared members are encoded at the first
 * viewer's request and reused for every other one — as text for `json`, and
 * as UTF-8 bytes (`,"game":…}`) that `viewFrameBytes` copies into each frame
 * rather than encoding them again per viewer. A game without `viewParts` (test
 * games) is encoded whole per viewer.
 */
export class StateViews {
  private sharedJson: string | null = null;
  private sharedTail: Buffer | null = null;

  constructor(
    private readonly game: AnyGame,
    private readonly state: unknown,
  ) {}

  json(viewer: PlayerId | null): string {
    const parts = this.game.viewParts;
    if (parts === undefined) return JSON.stringify(this.game.view(this.state, viewer));
    return joinObjects(JSON.stringify(parts.own(this.state, viewer)), this.shared());
  }

  /**
   * The viewer's own members as an open object (`{"viewer":…` without its `}`), to be followed
   * by `sharedBytes()`; null when the view cannot be cut there (no parts, or an empty part).
   * Encoded on every call, never kept per room: a room acts every few seconds, so a text kept for
   * its next action survives two scavenges, is promoted, and dies in the old generation, whose
   * marking then stalls the worker (the worker's capacity bench with reuse — a per-viewer cache
   * keyed by what the own members are made of — promoted 17 % more and cost 7 % more CPU per
   * action than encoding each time; docs/measurements/boxes.md, "A seventh box").
   */
  ownOpen(viewer: PlayerId | null): string | null {
    const parts = this.game.viewParts;
    if (parts === undefined || this.shared().length === 2) return null;
    const own = JSON.stringify(parts.own(this.state, viewer));
    return own.length === 2 ? null : own.slice(0, -1);
  }

  /** `,` + the shared members + `}`, as UTF-8, encoded once per state. */
  sharedBytes(): Buffer {
    return (this.sharedTail ??= Buffer.from(',' + this.shared().slice(1)));
  }

  private shared(): string {
    return (this.sharedJson ??= JSON.stringify(this.game.viewParts!.shared(this.state)));
  }
}

/**
 * What every frame of one transition shares: the room, the seq, the state's views, presence and
 * result, and the game's fixed members' JSON (`FixedMembers`; null = none), for the frames that
 * carry them.
 */
export interface FrameContext {
  roomIdJson: string;
  seq: number;
  events: readonly GameEvent[];
  views: StateViews;
  presenceJson: string;
  resultJson: string | null;
  fixedJson?: string | null;
}

/**
 * The viewer's frame as UTF-8 bytes: encoded here once, forwarded as they are by the gateway.
 * `withFixed`: the frame carries the game's fixed members (`c.fixedJson`) as its `fixed` member.
 * `withPresence` false: it leaves out the presence list, which this viewer already holds.
 */
export function viewFrameBytes(
  game: AnyGame,
  c: FrameContext,
  viewer: PlayerId | null,
  withFixed = false,
  withPresence = true,
): Uint8Array {
  const events: GameEvent[] = [];
  for (const e of c.events) {
    const seen = game.eventView(e, viewer);
    if (seen) events.push(seen);
  }
  const role = viewer === null ? 'spectator' : 'player';
  const eventsJson = JSON.stringify(events);
  const fixedJson = withFixed ? (c.fixedJson ?? null) : null;
  const presenceJson = withPresence ? c.presenceJson : null;
  const ownOpen = c.views.ownOpen(viewer);
  if (ownOpen === null)
    return Buffer.from(
      viewFrame(c.roomIdJson, c.seq, role, c.views.json(viewer), eventsJson, presenceJson, c.resultJson, fixedJson),
    );
  // The same text as viewFrame's, written in three pieces: the shared members' bytes are copied.
  return encodeViewBytes(c.roomIdJson, c.seq, role, ownOpen, c.views.sharedBytes(), {
    eventsJson,
    presenceJson,
    resultJson: c.resultJson,
    fixedJson,
  });
}
