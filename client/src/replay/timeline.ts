/**
 * A finished game's record turned into every state it passed through: the engine sets the game up from
 * the record's seed and applies each recorded step in order (with engine/src/record/record.ts's
 * setupFromRecord and applyRecordedStep, as verifyRecord does), keeping each state and the events of each step, so the 복기 screen can step both ways and jump.
 *
 * Pure and synchronous (no I/O). A step the engine rejects — a tampered record, or one from newer rules —
 * stops the timeline there: `failure` names the step, who made it, the cards it tried to move (by their
 * Korean names, as the game shows them) and the engine's Korean reason. Options that do not parse, or a
 * record from rules newer than this client, give an empty timeline with a failure at step 0.
 */
import {
  type AnyGame,
  type GameEvent,
  type GameStateBase,
  type PlayerId,
  applyRecordedStep,
  setupFromRecord,
  type GameRecord,
  type RecordedStep,
} from '@joke/engine/client';
import { replayGames, type ReplayGame } from './games/index.ts';

export interface ReplayFailure {
  /** 1-based number of the step that failed (0: the set-up itself). */
  step: number;
  actor: string | null;
  /** Korean names of the cards the failed step moves. */
  cards: string[];
  reason: string;
}

export interface Mark {
  /** Index into `states` where this hand / round starts. */
  index: number;
  label: string;
}

export interface Timeline {
  game: AnyGame;
  view: ReplayGame;
  /** states[0] is the deal; states[i] follows record.actions[i - 1]. */
  states: GameStateBase[];
  /** events[i]: what step i produced (events[0] is empty). */
  events: GameEvent[][];
  marks: Mark[];
  failure: ReplayFailure | null;
}

export function nameOf(record: GameRecord, id: PlayerId | null): string {
  return record.players.find((p) => p.id === id)?.name ?? '시간 초과';
}

/** Every card id a step's action moves (`cardId`, `cardIds`, `card`, nested one level). */
export function cardIdsOf(step: RecordedStep): string[] {
  if ('timeout' in step) return [];
  const out: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 2) return;
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'cardId' || k === 'card') && (typeof x === 'string' || typeof x === 'number')) out.push(String(x));
      else if (k === 'cardIds' && Array.isArray(x)) out.push(...x.map(String));
      else visit(x, depth + 1);
    }
  };
  visit(step.action, 0);
  return out;
}

export function buildTimeline(game: AnyGame, record: GameRecord): Timeline {
  const view = replayGames[game.id];
  const empty = (reason: string): Timeline => ({
    game,
    view,
    states: [],
    events: [],
    marks: [],
    failure: { step: 0, actor: null, cards: [], reason },
  });
  const set = setupFromRecord(game, record);
  if (!set.ok)
    return empty(
      set.problem === 'options'
        ? '기록의 게임 설정을 읽을 수 없어요'
        : `더 새로운 규칙(${set.rulesVersion})으로 둔 게임이에요. 새로고침해 주세요`,
    );
  let state = set.state;
  const states = [state];
  const events: GameEvent[][] = [[]];
  let failure: ReplayFailure | null = null;
  for (const [i, step] of record.actions.entries()) {
    const r = applyRecordedStep(game, state, step);
    if (!r.ok) {
      const cards = cardIdsOf(step).map((id) => view.cardName(state, id));
      failure = { step: i + 1, actor: 'timeout' in step ? null : step.actor, cards, reason: r.reason };
      break;
    }
    state = r.state;
    states.push(state);
    events.push(r.events);
  }
  const marks: Mark[] = [];
  let last: string | null = null;
  states.forEach((s, index) => {
    const label = view.markOf(s);
    if (label !== null && label !== last) marks.push({ index, label });
    if (label !== null) last = label;
  });
  return { game, view, states, events, marks, failure };
}
