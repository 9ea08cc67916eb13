/**
 * The table's short announcements for the moments everyone should notice
 * (스톱, 훌라, 특수 승리, 땡큐, 덱 소진), from the frame's public events.
 */
import type { GameEvent } from '@joke/engine/client';
import { nameOf, type HulaView } from './model.ts';

const SPECIAL = { daeka: '대카', soka: '소카', sevens: '7777' } as Record<string, string>;

export function eventToast(view: HulaView, e: GameEvent): { text: string; tone: 'info' | 'good' } | null {
  const who = (id: unknown) => (id === view.viewer ? '내가' : `${nameOf(view, id as string)} 님이`);
  switch (e.type) {
    case 'stop':
      return { text: `${who(e.player)} 스톱!`, tone: 'info' };
    case 'hula':
      return { text: `${who(e.player)} 훌라!${e.byThankYou ? ' (땡큐 훌라)' : ''}`, tone: 'good' };
    case 'special':
      return { text: `${who(e.player)} 특수 승리 (${SPECIAL[e.kind as string] ?? ''})!`, tone: 'good' };
    case 'thankYou':
      return { text: `${who(e.player)} 땡큐!`, tone: 'info' };
    case 'thankYouClaimed':
      return { text: `${who(e.player)} 땡큐! 신청`, tone: 'info' };
    case 'deckExhausted':
      return { text: '덱이 떨어졌어요 — 손패 점수로 승부', tone: 'info' };
    default:
      return null;
  }
}
