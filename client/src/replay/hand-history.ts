/**
 * A poker game's plain-text hand history, one block per hand: seats with their chips at the deal, the
 * blinds (or the ante unit), each street with the board and every action in order, the showdown and the
 * pots with who took them. Pure: read from the replayed states (timeline.ts) and the record's steps, so
 * it shows every hole card (the game is over). Non-poker states give an empty string.
 */
import {
  type GameStateBase,
  type GameRecord,
  type PokerState,
  KOREAN_LABEL,
  type KoreanType,
} from '@joke/engine/client';
import { naturalName } from './games/cards.ts';

type Card = { suit: string; rank: number };
const cards = (cs: readonly Card[]): string => (cs.length ? cs.map(naturalName).join(' ') : '-');

const STREETS = ['프리플롭', '플롭', '턴', '리버'];

function streetName(s: PokerState, street: number): string {
  return s.options.mode === 'holdem' || s.options.mode === 'omaha'
    ? (STREETS[street] ?? `${street + 1}번째 베팅`)
    : `${street + 1}번째 베팅`;
}

export function actionText(action: unknown): string {
  const a = action as { type?: string; to?: number; cardIds?: unknown[]; side?: string; accept?: boolean };
  switch (a.type) {
    case 'nl.fold':
      return '폴드';
    case 'nl.check':
      return '체크';
    case 'nl.call':
      return '콜';
    case 'nl.allIn':
      return '올인';
    case 'nl.raise':
      return `레이즈 → ${a.to}`;
    case 'draw':
      return `${a.cardIds?.length ?? 0}장 바꾸기`;
    case 'declare':
      return `선언: ${a.side}`;
    case 'choose':
      return '카드 고르기';
    case 'rebuy':
      return a.accept ? '리바이' : '리바이 안 함';
    case 'leave':
      return '나가기';
    default:
      return a.type && a.type in KOREAN_LABEL ? KOREAN_LABEL[a.type as KoreanType] : String(a.type);
  }
}

export function pokerHandHistory(record: GameRecord, states: readonly GameStateBase[]): string {
  if (record.game !== 'poker' || states.length === 0) return '';
  const name = (id: string | null): string => record.players.find((p) => p.id === id)?.name ?? String(id);
  const out: string[] = [];
  let handNo = -1;
  let street = -1;
  let boardLen = 0;
  let ended = false;
  states.forEach((raw, i) => {
    const s = raw as PokerState;
    const h = s.hand;
    const step = i > 0 ? record.actions[i - 1] : null;
    // The step's line belongs to the hand it was made in (before a new deal starts the next block).
    if (step && !ended && !(step && !('timeout' in step) && (step.action as { type?: string }).type === 'ready'))
      out.push('timeout' in step ? '  (시간 초과)' : `  ${name(step.actor)}: ${actionText(step.action)}`);
    if (!h) return;
    if (h.handNo !== handNo) {
      handNo = h.handNo;
      street = -1;
      boardLen = 0;
      ended = false;
      if (out.length) out.push('');
      out.push(`=== ${handNo}번째 판 (${s.options.mode}) ===`);
      for (const seat of s.seats) {
        const p = h.players[seat.id];
        if (!p) continue;
        const dealer = seat.seat === h.dealerSeat ? ' [딜러]' : '';
        out.push(
          `좌석 ${seat.seat + 1}: ${name(seat.id)} (${seat.stackAtHandStart}칩)${dealer} — ${cards([...p.hole, ...p.up])}`,
        );
      }
      const sb = h.sbSeat === null ? null : s.seats.find((x) => x.seat === h.sbSeat);
      const bb = h.bbSeat === null ? null : s.seats.find((x) => x.seat === h.bbSeat);
      out.push(
        sb && bb
          ? `블라인드: ${name(sb.id)} ${s.baseUnit / 2} / ${name(bb.id)} ${s.baseUnit}`
          : `기본 단위: ${s.baseUnit}`,
      );
    }
    const st = h.betting?.street ?? street;
    if (st !== street || h.board.length !== boardLen) {
      street = st;
      boardLen = h.board.length;
      if (st >= 0) out.push(`* ${streetName(s, st)}${h.board.length ? ` [${cards(h.board)}]` : ''}`);
    }
    if (h.phase === 'handEnd' && !ended) {
      ended = true;
      if (h.showdown?.length) {
        out.push('* 쇼다운');
        for (const e of h.showdown) out.push(`  ${name(e.id)}: ${cards(e.cards)} — ${e.handName}`);
      }
      (h.potResults ?? []).forEach((pot, k) => {
        const who = pot.carried
          ? '다음 판으로 넘어감'
          : pot.winners.map((w) => `${name(w.player)} +${w.amount}`).join(', ');
        out.push(`* ${k === 0 ? '메인 팟' : `사이드 팟 ${k}`} ${pot.amount}: ${who}`);
      });
    }
  });
  return `${out.join('\n')}\n`;
}
