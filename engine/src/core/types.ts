/**
 * The contract every game implements. A game is a set of pure functions over
 * plain-JSON state: no I/O, no clocks (time comes in as `now`), no Math.random
 * (randomness comes from the seeded RNG whose state lives inside the game state).
 *
 * The runtime (room workers), the simulator, the bot swarm and the record
 * verifier all drive games through this interface only.
 */
import type { z } from 'zod';
import type { Rng, RngState } from './rng.ts';

export type PlayerId = string;

/**
 * What `restoreState` (core/versions.ts `makeRestore`) makes of a snapshot's state. Declared here with
 * the contract that returns it, so versions.ts depends on this file and not the other way round.
 */
export type RestoreResult<S> =
  | { ok: true; state: S; rulesVersion: number; migrated: boolean }
  | { ok: false; code: 'malformed' | 'wrongGame' | 'newerRules'; reason: string };
export type GameId = 'one-card' | 'poker' | 'hula';

export interface PlayerInfo {
  id: PlayerId;
  /** Display name, public to everyone at the table. */
  name: string;
}

export interface SetupInput<O> {
  /** Secret seed. The platform draws a fresh cryptographic one per game; tests pass fixed ones. */
  seed: string;
  /** Seat order. */
  players: PlayerInfo[];
  /** Already parsed by `optionsSchema` (defaults filled in). */
  options: O;
  /** Wall-clock ms; only used to compute deadlines. */
  now: number;
  /** Rules version to play under (1 … the game's `rulesVersion`); default: the current one. Records replay with theirs. */
  rulesVersion?: number;
}

/** Every action is a tagged plain object; payload fields sit next to `type`. */
export interface GameAction {
  type: string;
}

/**
 * Events describe what happened, for animation and logs. They may carry
 * private parts (a drawn card's face); `eventView` filters them per viewer
 * exactly as `view` filters state.
 */
export interface GameEvent {
  type: string;
  [key: string]: unknown;
}

/** `E` narrows the events to a game's own union (e.g. HulaEvent) inside that game; the runtime sees GameEvent. */
export type ApplyResult<S, E extends GameEvent = GameEvent> =
  { ok: true; state: S; events: E[] } | { ok: false; reason: string };

/** Fields every game state carries; the rest is game-specific. */
export interface GameStateBase {
  game: GameId;
  /**
   * The rules this game is played under (core/versions.ts); reducers branch on it where a rule
   * changed. Every platform game sets it (optional here only for test games outside the engine).
   */
  rulesVersion?: number;
  /** Number of accepted transitions (actions and timeouts). */
  seq: number;
  /** SHA-256 hex of the secret seed: public from the first view on. */
  seedCommit: string;
  /** The secret seed; revealed only through `result`. Never in a view. */
  seed: string;
  rng: RngState;
  players: PlayerInfo[];
}

/** Fields every view carries. */
export interface GameViewBase {
  game: GameId;
  /** The rules version the game is played under. */
  rulesVersion?: number;
  seq: number;
  seedCommit: string;
  /** null = spectator. */
  viewer: PlayerId | null;
  players: PlayerInfo[];
  /** Absolute ms of the next timer, if any. */
  deadline: number | null;
  finished: boolean;
}

export interface RankingEntry {
  player: PlayerId;
  /** 1 = first; equal ranks are ties. */
  rank: number;
  [key: string]: unknown;
}

export interface GameResult {
  ranking: RankingEntry[];
  winners: PlayerId[];
  /** Korean, shown on the result screen. */
  summary: string;
  /** The secret seed, revealed now that the game is over (check it against `seedCommit`). */
  seed: string;
  [key: string]: unknown;
}

/** One option of the create-room form, generated from the engine alone. */
export interface OptionField {
  key: string;
  /** Korean label. */
  label: string;
  kind: 'choice' | 'boolean' | 'integer';
  /** For `choice`: every value with its Korean label, in display order. */
  choices?: { value: string | number | null; label: string }[];
  /** For `integer`: inclusive range. */
  min?: number;
  max?: number;
  /** Default for the given mode (some defaults depend on the mode). */
  defaultByMode: Record<string, unknown>;
  /** Modes in which this option applies; absent = all modes. */
  modes?: string[];
  help?: string;
}

/**
 * A named starting point for the room form: the mode plus the options it sets away from
 * that mode's defaults (every other option keeps its default). Pure data, so the lobby can
 * hand it to the client beside `optionFields` and the form and the table read one copy.
 */
export interface OptionPreset {
  /** Stable id (the client's chooser uses it as its value). */
  id: string;
  /** Korean name shown in the chooser and above the rules in force. */
  name: string;
  /** One Korean line: who the preset is for. */
  summary: string;
  /** Partial options; `mode` should be set, every missing key takes that mode's default. */
  options: Record<string, unknown>;
}

/**
 * Automatic moves the runtime makes for a seated player whose connection is gone
 * (e.g. hula §8.6). The runtime knows who is disconnected and since when, the
 * engine knows when and what: it arms a timer at `due` and applies `action` with
 * `apply(state, player, action, now)`, like any recorded step, until `action` is null.
 *
 * `disconnectedSince` (absolute ms the player's connection was lost, kept by the
 * runtime across restarts) is optional so rules that depend on how long someone
 * has been away (hula's leave after 60 s) can be expressed; a runtime that does
 * not track it passes nothing and gets only the other moves.
 */
export interface SubstitutePolicy<S extends GameStateBase = GameStateBase, A extends GameAction = GameAction> {
  /** Absolute ms from which the substitute may act for `player`, or null when it has nothing to do for them. */
  due(state: S, player: PlayerId, disconnectedSince?: number | null): number | null;
  /** The action to apply for `player` at `now`, or null when none is due yet. */
  action(state: S, player: PlayerId, now: number, disconnectedSince?: number | null): A | null;
}

/**
 * What a bot may be driven with: the engine's seeded generator (core/rng.ts),
 * or a plain seed (string or number) from which one is derived with
 * `Rng.fromSeed(String(seed), 'bot')`, so any caller can drive a bot
 * reproducibly without importing the generator.
 */
export type BotRandom = Rng | string | number;

/**
 * A game's view cut in three: `fixed(state)` holds the members that never change during one
 * game (the game id, rules version, seed commitment, options, who plays…) and `shared(state)`
 * the other members every viewer of that state sees alike — both public by construction (no
 * hand, no draw pile, no RNG state), since they are given no viewer — and `own(state, viewer)`
 * the few that depend on who looks (their hand, legal actions, …). The three have no member in
 * common and `view(state, viewer)` is `{ ...fixed(state), ...shared(state), ...own(state, viewer) }`.
 * The room worker encodes `shared` once per transition and splices each viewer's `own` into it
 * as text, instead of encoding every view whole (most of a view is the same for every viewer);
 * it sends `fixed` only to a viewer that may not have it yet (a join's reply, the first frame
 * after a takeover, a new game), as the frame's `fixed` member. Each game builds all three in
 * its `view.ts`; a member may be in `fixed` only if no transition of the game can change it
 * (engine/test/view-parts.test.ts checks that over simulated games).
 */
export interface ViewParts<S, V> {
  fixed(state: S): Partial<V>;
  shared(state: S): Partial<V>;
  own(state: S, viewer: PlayerId | null): Partial<V>;
}

export interface GameDefinition<
  S extends GameStateBase = GameStateBase,
  A extends GameAction = GameAction,
  V extends GameViewBase = GameViewBase,
  O extends { mode: string } = { mode: string },
  R extends GameResult = GameResult,
> {
  id: GameId;
  /** Korean display name. */
  name: string;
  /** Mode ids with their Korean display names. */
  modes: { id: string; name: string }[];
  /** Current rules version (core/versions.ts): new games are set up under it. Every platform game has one. */
  rulesVersion?: number;
  /**
   * Checks a state from a snapshot before it is trusted: zod shape, same game,
   * rules version not newer than this engine; an older shape is migrated (its
   * rules version kept). The room worker calls it at restore.
   */
  restoreState?(raw: unknown): RestoreResult<S>;
  /** Display name of the mode for these options when an option renames it; default: the `modes` entry. */
  modeName?(options: O): string;
  minPlayers: number;
  maxPlayers: number;
  /** Parses raw options: fills defaults, enforces cross-field rules with Korean messages. */
  optionsSchema: z.ZodType<O>;
  /** The create-room form. */
  optionFields: OptionField[];
  /** Named option sets the room form offers first (core/presets.ts); absent = none. */
  presets?: OptionPreset[];
  /** Shape of every action this game accepts (used by the protocol and to reject malformed input). */
  actionSchema: z.ZodType<A>;
  /**
   * Action types judged on the current state even when their sender chose them on an older view: answers
   * in a window where several players answer at once and the game itself orders them (원카드 외치기, 훌라
   * 땡큐/패스, 하이로우 선언), readiness, rebuys and leaving. Every other move chosen on an older view is
   * refused `stale` by the room worker (someone moved first), without asking the game.
   */
  viewFreeActions?: readonly string[];
  /** Allowed seat count for these options (mode-specific caps). */
  playerRange(options: O): { min: number; max: number };
  setup(input: SetupInput<O>): S;
  /**
   * Pure: the input state is never mutated (copy-on-write on the parts that
   * change). A rejection carries a Korean reason and no state.
   * `action` is untrusted input and is validated here.
   */
  apply(state: S, actor: PlayerId, action: unknown, now: number): ApplyResult<S>;
  /** What `viewer` may see, including their legal actions. null = spectator. */
  view(state: S, viewer: PlayerId | null): V;
  /**
   * The same view cut in three (see `ViewParts`), so a runtime can encode the part every viewer
   * shares once per state and the part fixed for the game once per game. Every platform game has
   * it; `view` is defined as the join of the three.
   */
  viewParts?: ViewParts<S, V>;
  /** The part of `event` that `viewer` may see, or null to drop it. */
  eventView(event: GameEvent, viewer: PlayerId | null): GameEvent | null;
  /** Absolute ms when `onTimeout` should run, or null. */
  deadline(state: S): number | null;
  /**
   * The players the game is waiting on now: exactly those with a move the game awaits (a turn, an
   * answer, a ready). Optional calls made out of turn and leaving never make anyone active. The
   * runtime counts an expired deadline against these players and arms bot think timers for them,
   * without asking a bot (whose randomness is not the game's). Empty once the game is over.
   */
  activePlayers(state: S): PlayerId[];
  /** The name of the phase the game is in (for logs and metrics). */
  phase(state: S): string;
  /** The automatic action(s) for an expired deadline. Rejects if nothing is due at `now`. */
  onTimeout(state: S, now: number): ApplyResult<S>;
  /** null until the game is over; typed per game (OneCardResult, PokerResult, HulaResult). */
  result(state: S): R | null;
  /**
   * Picks an action for the viewer from its own view only, or null if it has
   * nothing to do now. Drives the simulator, load tests and AI substitutes.
   * Callers holding a plain seed use `runBot(game, view, seed)` (core/rng.ts).
   */
  bot(view: V, rng: Rng): A | null;
  /**
   * Optional: the game's disconnection rule — this long without any traffic from a
   * player's client (no reply to the server's pings) counts as disconnected (hula:
   * 30 s, docs/games/hula.md §8.5). The gateway derives its socket idle timeout
   * from the shortest one (`socketIdleTimeoutSec`, core/presence.ts).
   */
  disconnectAfterMs?: number;
  /** Optional: moves made for a disconnected player (absent = the game goes on by its deadlines only). */
  substitute?: SubstitutePolicy<S, A>;
  /**
   * Optional: top-level action fields only the runtime may set (markers such as
   * "made by the substitute"). The runtime refuses a client action carrying any
   * of them; `apply` still accepts them, so records that contain them replay.
   */
  runtimeOnlyFields?: readonly string[];
}

/**
 * Any game, as the runtimes hold them (the registry `games`, the room worker, the simulator): a declared
 * boundary. GameDefinition takes its state, action, view and options both in and out (`apply(state: S)`
 * returns `S`), so a GameDefinition<PokerState> is not a GameDefinition<GameStateBase>; `any` here lets one
 * registry hold the three games. Code behind it types what it keeps with the base types (GameStateBase,
 * GameViewBase), never `any`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry boundary described above
export type AnyGame = GameDefinition<any, any, any, any, any>;
