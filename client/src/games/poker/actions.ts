/**
 * The action bar as a pure function of the view's legal actions (spec §9) and
 * the bar's local state (raise panel, selected cards, the 7-poker choice).
 * Nothing here knows a betting rule: amounts and limits come from the view.
 */
import { KOREAN_LABEL } from '@joke/engine/client';
import type { ButtonKind } from '../../table-kit/widgets.ts';
import { chips, handPlayer, potTotal, type LegalAction, type PokerAction, type PokerView } from './model.ts';
import type { RaiseSlider } from './raise-slider.ts';

export interface ActionButton {
  key: string;
  label: string;
  enabled: boolean;
  kind: ButtonKind;
  /** Sent when pressed. */
  action?: PokerAction;
  /** Asked first ("체크할 수 있는데 포기할까요?"). */
  confirm?: string;
  /** Local bar changes instead of an action. */
  ui?: 'openRaise' | 'closeRaise' | 'minus' | 'plus' | 'undoChoice' | { raiseTo: number };
}

export interface BarState {
  raiseOpen: boolean;
  raiseTo: number;
  /** Cards picked for a draw (ids). */
  selected: number[];
  choice: { discardId: number | null; openId: number | null };
}

export interface Bar {
  buttons: ActionButton[];
  perRow: number;
  /** What to do now, shown above my cards. */
  prompt: string;
  /** The open NL/PL raise panel's slider (raise-slider.ts); the buttons then follow its panel order. */
  slider?: RaiseSlider;
}

export const KOREAN_ORDER = [
  'k.die',
  'k.check',
  'k.ping',
  'k.call',
  'k.ddadang',
  'k.quarter',
  'k.half',
  'k.full',
] as const;

export function emptyBarState(): BarState {
  return { raiseOpen: false, raiseTo: 0, selected: [], choice: { discardId: null, openId: null } };
}

function find<T extends LegalAction['type']>(v: PokerView, type: T): (LegalAction & { type: T }) | undefined {
  return v.legalActions.find((a) => a.type === type) as (LegalAction & { type: T }) | undefined;
}

const FOLD_CONFIRM = '체크할 수 있는데 포기할까요?';

function korean(v: PokerView): Bar {
  const legal = new Map(v.legalActions.map((a) => [a.type, a]));
  const canCheck = legal.has('k.check');
  const buttons = KOREAN_ORDER.map((type): ActionButton => {
    const a = legal.get(type) as { amount: number; allIn: boolean } | undefined;
    const amount = a && a.amount > 0 ? ` (+${a.amount.toLocaleString('ko-KR')})` : '';
    return {
      key: type,
      label: `${KOREAN_LABEL[type]}${amount}${a?.allIn ? ' 올인' : ''}`,
      enabled: a !== undefined,
      kind: type === 'k.die' ? 'danger' : type === 'k.check' || type === 'k.call' ? 'secondary' : 'primary',
      action: { type } as PokerAction,
      confirm: type === 'k.die' && canCheck ? FOLD_CONFIRM : undefined,
    };
  });
  return { buttons, perRow: 4, prompt: v.legalActions.length ? '베팅할 차례예요' : '' };
}

/** Quick raise targets bounded by the legal range: ½ pot, pot (raise-to totals, as the engine names them). */
export function raisePresets(v: PokerView, min: number, max: number): { label: string; to: number }[] {
  const me = v.viewer ? handPlayer(v, v.viewer) : null;
  const bet = v.hand?.currentBet ?? 0;
  const toCall = Math.max(0, bet - (me?.committedRound ?? 0));
  const pot = potTotal(v) + toCall;
  // Round to the base unit so the presets read as round numbers, then keep them legal.
  const unit = Math.max(1, v.baseUnit);
  const clamp = (x: number) => Math.max(min, Math.min(max, Math.round(x / unit) * unit));
  return [
    { label: '최소', to: min },
    { label: '½팟', to: clamp(bet + pot / 2) },
    { label: '팟', to: clamp(bet + pot) },
    { label: '최대', to: max },
  ];
}

function noLimit(v: PokerView, ui: BarState): Bar {
  const fold = find(v, 'nl.fold');
  const check = find(v, 'nl.check');
  const call = find(v, 'nl.call');
  const raise = find(v, 'nl.raise');
  const allIn = find(v, 'nl.allIn');
  const word = raise?.bet ? '벳' : '레이즈';
  if (ui.raiseOpen && raise) {
    const to = Math.max(raise.min, Math.min(raise.max, ui.raiseTo || raise.min));
    const step = v.baseUnit;
    return {
      perRow: 4,
      prompt: `${word} 금액: ${chips(raise.min)} ~ ${chips(raise.max)}`,
      slider: { min: raise.min, max: raise.max, unit: Math.max(1, step), value: to },
      // Panel order (raise-slider.ts raisePanelRects): −, +, the quick buttons, 취소, confirm with the amount.
      buttons: [
        { key: 'minus', label: `− ${step}`, enabled: to > raise.min, kind: 'secondary', ui: 'minus' },
        { key: 'plus', label: `+ ${step}`, enabled: to < raise.max, kind: 'secondary', ui: 'plus' },
        ...raisePresets(v, raise.min, raise.max).map((p, i): ActionButton => ({
          key: `preset${i}`,
          label: p.label,
          enabled: true,
          kind: p.to === to ? 'toggle' : 'secondary',
          ui: { raiseTo: p.to },
        })),
        { key: 'cancel', label: '취소', enabled: true, kind: 'ghost', ui: 'closeRaise' },
        {
          key: 'confirmRaise',
          label: `${word} 확인 (${to.toLocaleString('ko-KR')})`,
          enabled: true,
          kind: 'primary',
          action: { type: 'nl.raise', to },
        },
      ],
    };
  }
  const mine = v.legalActions.length > 0;
  const callish: ActionButton = check
    ? { key: 'check', label: '체크', enabled: true, kind: 'secondary', action: { type: 'nl.check' } }
    : call
      ? {
          key: 'call',
          label: `콜 (+${call.amount.toLocaleString('ko-KR')})${call.allIn ? ' 올인' : ''}`,
          enabled: true,
          kind: 'secondary',
          action: { type: 'nl.call' },
        }
      : { key: 'check', label: '체크/콜', enabled: false, kind: 'secondary' };
  return {
    perRow: 4,
    prompt: mine ? '베팅할 차례예요' : '',
    buttons: [
      {
        key: 'fold',
        label: '폴드',
        enabled: fold !== undefined,
        kind: 'danger',
        action: { type: 'nl.fold' },
        confirm: check ? FOLD_CONFIRM : undefined,
      },
      callish,
      { key: 'raise', label: `${word}…`, enabled: raise !== undefined, kind: 'primary', ui: 'openRaise' },
      {
        key: 'allIn',
        label: allIn ? `올인 (+${allIn.amount.toLocaleString('ko-KR')})` : '올인',
        enabled: allIn !== undefined,
        kind: 'primary',
        action: { type: 'nl.allIn' },
      },
    ],
  };
}

/** Whether `ids` may be exchanged under the view's draw limits (the ace exception is the engine's number). */
export function drawAllowed(v: PokerView, ids: number[]): boolean {
  const d = find(v, 'draw');
  if (!d) return false;
  if (ids.length <= d.max) return true;
  if (d.maxWithAce === null || ids.length > d.maxWithAce) return false;
  const me = v.viewer ? handPlayer(v, v.viewer) : null;
  const kept = (me?.hole ?? []).filter((c) => 'id' in c && !ids.includes(c.id));
  return kept.some((c) => 'rank' in c && c.rank === 14);
}

export function actionBar(v: PokerView, ui: BarState): Bar {
  if (v.viewer === null) return { buttons: [], perRow: 4, prompt: '' };
  const types = new Set(v.legalActions.map((a) => a.type));
  if (types.has('rebuy'))
    return {
      perRow: 2,
      prompt: `칩이 떨어졌어요. ${chips(v.options.startingChips)}을 다시 받을까요?`,
      buttons: [
        { key: 'rebuyNo', label: '그만하기', enabled: true, kind: 'ghost', action: { type: 'rebuy', accept: false } },
        { key: 'rebuy', label: '리바이 받기', enabled: true, kind: 'primary', action: { type: 'rebuy', accept: true } },
      ],
    };
  if (types.has('ready'))
    return {
      perRow: 1,
      prompt: '',
      buttons: [{ key: 'ready', label: '다음 판 준비', enabled: true, kind: 'primary', action: { type: 'ready' } }],
    };
  if (types.has('choose')) {
    const { discardId, openId } = ui.choice;
    const prompt =
      discardId === null ? '버릴 카드를 누르세요' : openId === null ? '보여 줄 카드를 누르세요' : '확인을 누르세요';
    return {
      perRow: 2,
      prompt,
      buttons: [
        { key: 'undo', label: '되돌리기', enabled: discardId !== null, kind: 'ghost', ui: 'undoChoice' },
        {
          key: 'choose',
          label: '확인',
          enabled: discardId !== null && openId !== null,
          kind: 'primary',
          action: discardId !== null && openId !== null ? { type: 'choose', discardId, openId } : undefined,
        },
      ],
    };
  }
  const draw = find(v, 'draw');
  if (draw) {
    const n = ui.selected.length;
    const limit =
      draw.maxWithAce !== null ? `최대 ${draw.max}장, A를 남기면 ${draw.maxWithAce}장` : `최대 ${draw.max}장`;
    return {
      perRow: 1,
      prompt: `바꿀 카드를 누르세요 (${limit})`,
      buttons: [
        {
          key: 'draw',
          label: n === 0 ? '패스' : `${n}장 바꾸기`,
          enabled: drawAllowed(v, ui.selected),
          kind: 'primary',
          action: { type: 'draw', cardIds: [...ui.selected] },
        },
      ],
    };
  }
  if (types.has('declare')) {
    const high = v.myHand?.name ?? '';
    const low = v.myHand?.low ?? '';
    return {
      perRow: 3,
      prompt: '하이/로우/스윙을 선언하세요',
      buttons: [
        {
          key: 'high',
          label: `하이${high ? `\n${high}` : ''}`,
          enabled: true,
          kind: 'primary',
          action: { type: 'declare', side: 'high' },
        },
        {
          key: 'low',
          label: `로우${low ? `\n${low}` : ''}`,
          enabled: true,
          kind: 'primary',
          action: { type: 'declare', side: 'low' },
        },
        {
          key: 'swing',
          label: '스윙\n하이+로우',
          enabled: true,
          kind: 'danger',
          action: { type: 'declare', side: 'swing' },
        },
      ],
    };
  }
  // Betting (ours or someone else's turn): the same buttons, disabled unless the view lists them.
  const me = handPlayer(v, v.viewer);
  if (v.hand?.phase === 'betting' && me && !me.folded) return v.betting === 'korean' ? korean(v) : noLimit(v, ui);
  return { buttons: [], perRow: 1, prompt: '' };
}

/** The bar state after pressing a button that changes the bar rather than sending an action. */
export function pressUi(v: PokerView, ui: BarState, a: ActionButton): BarState {
  const raise = find(v, 'nl.raise');
  const min = raise?.min ?? 0;
  const max = raise?.max ?? 0;
  const cur = Math.max(min, Math.min(max, ui.raiseTo || min));
  if (a.ui === 'openRaise') return { ...ui, raiseOpen: true, raiseTo: min };
  if (a.ui === 'closeRaise') return { ...ui, raiseOpen: false };
  if (a.ui === 'minus') return { ...ui, raiseTo: Math.max(min, cur - v.baseUnit) };
  if (a.ui === 'plus') return { ...ui, raiseTo: Math.min(max, cur + v.baseUnit) };
  if (a.ui === 'undoChoice') return { ...ui, choice: { discardId: null, openId: null } };
  if (a.ui && typeof a.ui === 'object') return { ...ui, raiseTo: a.ui.raiseTo };
  return ui;
}
