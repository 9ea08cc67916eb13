/**
 * Plays bot games through the engine contract only (setup/apply/view/
 * onTimeout/result/bot) and checks, at every step, the invariants that keep
 * players' trust: cards are conserved, no view or event identifies a card its
 * viewer must not see, and bad input is rejected without touching state.
 */
import { Rng } from '../core/rng.ts';
import type { AnyGame, GameEvent, GameStateBase, GameViewBase, PlayerId, PlayerInfo } from '../core/types.ts';
import type { GameRecord, RecordedStep } from '../record/record.ts';
import type { SimAdapter } from './adapter.ts';
import { findLeaks, findStateLeaks, hiddenSet } from './secrecy.ts';

export interface SimConfig {
  adapter: SimAdapter;
  options: Record<string, unknown>;
  players: number;
  games: number;
  seed: string | number;
  /** Stop a game after this many transitions and count it unfinished. */
  maxSteps?: number;
  /** Chance that a bot lets its timer run out instead of acting. */
  timeoutRate?: number;
  /** Called with every finished game's record (for `--record`). */
  onRecord?: (record: GameRecord, index: number) => void;
  onProgress?: (done: number) => void;
}

export interface SimReport {
  game: string;
  mode: string;
  players: number;
  games: number;
  finished: number;
  actions: number;
  actionsPerSec: number;
  invariantViolations: number;
  leaks: number;
  illegalAccepted: number;
  illegalProbes: number;
  timeouts: number;
  /** First few problems, for humans. */
  samples: string[];
}

const NAMES = ['민수', '지영', '철수', '영희', '동현', '수진', '현우', '은지', '준호', '서연'];
const MALFORMED: unknown[] = [null, 'play', 42, {}, { type: 7 }, { type: 'play', cardIds: 'x' }, { type: 'nope' }, []];

export function simPlayers(n: number): PlayerInfo[] {
  return Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, name: NAMES[i % NAMES.length] }));
}

export function runSim(cfg: SimConfig): SimReport {
  const { adapter } = cfg;
  const game: AnyGame = adapter.game;
  const options = game.optionsSchema.parse(cfg.options);
  const players = simPlayers(cfg.players);
  const viewers: (PlayerId | null)[] = [...players.map((p) => p.id), null];
  const simRng = Rng.fromSeed(`sim:${cfg.seed}`);
  const maxSteps = cfg.maxSteps ?? 200_000;
  const timeoutRate = cfg.timeoutRate ?? 0.02;
  const report: SimReport = {
    game: game.id,
    mode: String(options.mode),
    players: cfg.players,
    games: cfg.games,
    finished: 0,
    actions: 0,
    actionsPerSec: 0,
    invariantViolations: 0,
    leaks: 0,
    illegalAccepted: 0,
    illegalProbes: 0,
    timeouts: 0,
    samples: [],
  };
  const note = (kind: 'invariantViolations' | 'leaks' | 'illegalAccepted', msg: string): void => {
    report[kind]++;
    if (report.samples.length < 20) report.samples.push(`${kind}: ${msg}`);
  };
  const started = performance.now();

  for (let g = 0; g < cfg.games; g++) {
    const startedAt = 1_800_000_000_000 + g * 10_000_000;
    const seed = `${cfg.seed}:${g}`;
    let state: GameStateBase = game.setup({ seed, players, options, now: startedAt });
    let now = startedAt;
    const deck = idMultiset(adapter, state);
    const steps: RecordedStep[] = [];
    let last: { actor: PlayerId; action: unknown } | null = null;
    let nextProbe = 3;
    let finished = false;

    for (let step = 0; step < maxSteps; step++) {
      const where = `game ${g} step ${step}`;
      const views = checkViews(adapter, state, viewers, (k, m) => note(k, `${where}: ${m}`));
      if (game.result(state)) {
        finished = true;
        break;
      }

      if (--nextProbe <= 0) {
        nextProbe = 3 + simRng.int(5);
        probeIllegal(adapter, state, simRng, last, now, (m) => note('illegalAccepted', `${where}: ${m}`), report);
      }

      // Everyone who has something to do proposes an action; arrival order is random,
      // which is how the server sees races such as the one-card catch.
      const candidates: { actor: PlayerId; action: unknown }[] = [];
      for (const p of players) {
        const action = game.bot(views.get(p.id), simRng);
        if (action) candidates.push({ actor: p.id, action });
      }
      const deadline = game.deadline(state);
      let r;
      let recorded: RecordedStep;
      if (candidates.length === 0 || (deadline !== null && simRng.float() < timeoutRate)) {
        if (deadline === null) {
          note('invariantViolations', `${where}: nobody can act and no timer is running`);
          break;
        }
        now = Math.max(now, deadline);
        r = game.onTimeout(state, now);
        recorded = { timeout: true, now };
        report.timeouts++;
      } else {
        const pick = candidates[simRng.int(candidates.length)];
        now += 50 + simRng.int(1500);
        if (deadline !== null && now >= deadline) now = deadline - 1;
        r = game.apply(state, pick.actor, pick.action, now);
        recorded = { actor: pick.actor, action: pick.action, now };
        last = pick;
      }
      if (!r.ok) {
        note(
          'invariantViolations',
          `${where}: bot/timeout transition rejected: ${r.reason} (${JSON.stringify(recorded)})`,
        );
        break;
      }
      const before = step % 16 === 0 ? JSON.stringify(state) : null;
      const prev = state;
      state = r.state;
      if (before !== null && JSON.stringify(prev) !== before)
        note('invariantViolations', `${where}: apply mutated its input`);
      steps.push(recorded);
      report.actions++;

      const after = idMultiset(adapter, state);
      if (after !== deck) note('invariantViolations', `${where}: cards not conserved`);
      if (adapter.conserved) {
        const c = adapter.conserved(state);
        if (c && c.value !== c.expected) note('invariantViolations', `${where}: ${c.name} ${c.value} != ${c.expected}`);
      }
      checkEvents(adapter, state, viewers, r.events, (m) => note('leaks', `${where}: ${m}`));
    }

    const result = game.result(state);
    if (result) report.finished++;
    else if (finished === false && report.samples.length < 20) report.samples.push(`unfinished: game ${g}`);
    cfg.onRecord?.(
      {
        game: game.id,
        options: options as Record<string, unknown>,
        players,
        startedAt,
        seedCommit: state.seedCommit,
        rulesVersion: state.rulesVersion,
        seed,
        actions: steps,
        result,
      },
      g,
    );
    cfg.onProgress?.(g + 1);
  }
  const secs = (performance.now() - started) / 1000;
  report.actionsPerSec = Math.round(report.actions / Math.max(secs, 1e-6));
  return report;
}

function idMultiset(adapter: SimAdapter, state: GameStateBase): string {
  const ids = adapter.allCards(state).map((c) => String(adapter.cardId(c)));
  ids.sort();
  for (let i = 1; i < ids.length; i++) if (ids[i] === ids[i - 1]) return `duplicate ${ids[i]}`;
  return ids.join(',');
}

function checkViews(
  adapter: SimAdapter,
  state: GameStateBase,
  viewers: (PlayerId | null)[],
  note: (kind: 'invariantViolations' | 'leaks', msg: string) => void,
): Map<PlayerId | null, GameViewBase> {
  const views = new Map<PlayerId | null, GameViewBase>();
  const finished = adapter.game.result(state) !== null;
  for (const viewer of viewers) {
    const view: GameViewBase = adapter.game.view(state, viewer);
    views.set(viewer, view);
    const leaks = findLeaks(adapter, hiddenSet(adapter, state, viewer), view);
    for (const l of leaks) note('leaks', `view of ${viewer ?? 'spectator'}: ${l}`);
    for (const l of findStateLeaks(view, finished ? '' : state.seed, state.rng))
      note('leaks', `view of ${viewer ?? 'spectator'}: ${l}`);
    if (view.seedCommit !== state.seedCommit) note('invariantViolations', 'view lacks the seed commitment');
  }
  for (const v of adapter.invariants(state, views)) note('invariantViolations', v);
  return views;
}

function checkEvents(
  adapter: SimAdapter,
  state: GameStateBase,
  viewers: (PlayerId | null)[],
  events: GameEvent[],
  note: (msg: string) => void,
): void {
  if (events.length === 0) return;
  for (const viewer of viewers) {
    const hidden = hiddenSet(adapter, state, viewer);
    for (const e of events) {
      const seen = adapter.game.eventView(e, viewer);
      if (!seen) continue;
      for (const l of findLeaks(adapter, hidden, seen)) note(`event ${e.type} to ${viewer ?? 'spectator'}: ${l}`);
      for (const l of findStateLeaks(seen, state.seed, state.rng)) {
        if (l === 'secret seed' && adapter.game.result(state)) continue;
        note(`event ${e.type} to ${viewer ?? 'spectator'}: ${l}`);
      }
    }
  }
}

function probeIllegal(
  adapter: SimAdapter,
  state: GameStateBase,
  rng: Rng,
  last: { actor: PlayerId; action: unknown } | null,
  now: number,
  note: (msg: string) => void,
  report: SimReport,
): void {
  const before = JSON.stringify(state);
  const probes = adapter.illegalProbes(state, rng, last);
  const someone = state.players[rng.int(state.players.length)].id;
  probes.push({ actor: someone, action: MALFORMED[rng.int(MALFORMED.length)], label: 'malformed' });
  probes.push({ actor: 'intruder', action: last?.action ?? { type: 'draw' }, label: 'forged' });
  for (const p of probes) {
    report.illegalProbes++;
    let r;
    try {
      r = adapter.game.apply(state, p.actor, p.action, now);
    } catch (e) {
      note(`${p.label} probe threw ${(e as Error).message}`);
      continue;
    }
    if (r.ok) note(`${p.label} probe accepted: ${p.actor} ${JSON.stringify(p.action)}`);
    else if (typeof r.reason !== 'string' || r.reason.length === 0) note(`${p.label} probe rejected without a reason`);
    if (JSON.stringify(state) !== before) note(`${p.label} probe changed the state`);
  }
}
