/**
 * One 복기 in the page: loads the record from the lobby (history.replay), replays it with the engine
 * (timeline.ts), opens the game's own table scene over a ReplaySource, and puts a control bar over it —
 * step back / forward, first / last, jump to a hand or round, auto-play with a speed, whose seat to look
 * from, every hand face up, the proof (proof.ts, checked right away and shown as a chip) and downloads.
 *
 * Failure modes: a refusal from the lobby is shown in Korean with the way on (sign in for a private game,
 * back to the lobby otherwise); a game just finished may not be stored yet (`playing`), so that answer is
 * asked again for a few seconds before it is shown. A record the engine cannot replay still opens as far
 * as it goes, with the proof failing at the step that broke.
 */
import type Phaser from 'phaser';
import { TRPCClientError } from '@trpc/client';
import { games } from '@joke/engine/client';
import type { ReplayDetail } from '@joke/lobby';
import type { GameRecord } from '@joke/engine/client';
import { lobby, errorMessage } from '../net/trpc.ts';
import { el } from '../ui/dom.ts';
import { buildTimeline, type Timeline } from './timeline.ts';
import { ReplaySource } from './source.ts';
import { prove, type ProofReport } from './proof.ts';
import { handsSheet, proofSheet } from './panels.ts';
import { replayLink } from './route.ts';
import { saveRecord, savePokerText } from './download.ts';
import './replay.css';

const SCENES: Record<string, string> = { 'one-card': 'table', poker: 'poker', hula: 'hula' };
const SPEEDS = [0.5, 1, 2, 4];
const BASE_MS = 900;

export interface ReplayExits {
  /** Back to the lobby; `signIn`: to its sign-in screen, keeping the address so the 복기 opens after. */
  toLobby(signIn: boolean): void;
}

function refusalCode(e: unknown): string | null {
  return e instanceof TRPCClientError ? ((e.data as { replay?: string } | undefined)?.replay ?? null) : null;
}

async function load(gameId: string): Promise<ReplayDetail> {
  const until = Date.now() + 8000;
  for (;;) {
    try {
      const d = await lobby.history.replay.query({ gameId });
      // JSON inference makes `action: unknown` optional; the lobby sends the engine GameRecord as stored.
      return { ...d, record: d.record as GameRecord };
    } catch (e) {
      if (refusalCode(e) !== 'playing' || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export class ReplaySession {
  private bar: HTMLElement | null = null;
  private notice: HTMLElement | null = null;
  private source: ReplaySource | null = null;
  private timeline: Timeline | null = null;
  private detail: ReplayDetail | null = null;
  private proof: ProofReport | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private speed = 1;
  private closed = false;
  private readonly refresh: (() => void)[] = [];
  private barSize: ResizeObserver | null = null;

  constructor(
    private readonly game: Phaser.Game,
    readonly gameId: string,
    private readonly exits: ReplayExits,
  ) {}

  async start(): Promise<void> {
    this.say('복기를 불러오는 중이에요…');
    let detail: ReplayDetail;
    try {
      detail = await load(this.gameId);
    } catch (e) {
      const signIn = refusalCode(e) === 'signIn';
      this.say(errorMessage(e), signIn ? '로그인하기' : '로비로', () => this.leave(signIn));
      return;
    }
    if (this.closed) return;
    const game = games[detail.game as keyof typeof games];
    if (!game) return this.say('이 클라이언트에는 없는 게임이에요', '로비로', () => this.leave(false));
    this.notice?.remove();
    this.detail = detail;
    const t = buildTimeline(game, detail.record);
    this.timeline = t;
    const bots = new Set(detail.players.filter((p) => p.bot).map((p) => p.playerId));
    const source = new ReplaySource(this.gameId, detail.record, t, bots);
    this.source = source;
    for (const key of ['lobby', 'table', 'poker', 'hula']) if (this.game.scene.isActive(key)) this.game.scene.stop(key);
    this.game.scene.start(SCENES[detail.game] ?? 'table', {
      source,
      title: `복기 · ${game.name}`,
      lead: `복기 · ${game.name}`,
      replay: true,
      onExit: () => this.leave(false),
    });
    this.buildBar(detail, t);
    this.proof = await prove(detail.record, t);
    this.update();
  }

  close(): void {
    this.closed = true;
    this.pause();
    this.bar?.remove();
    this.barSize?.disconnect();
    document.body.classList.remove('replaying');
    this.notice?.remove();
    for (const s of document.querySelectorAll('.replay-backdrop')) s.remove();
  }

  private leave(signIn: boolean): void {
    this.close();
    for (const key of ['table', 'poker', 'hula']) if (this.game.scene.isActive(key)) this.game.scene.stop(key);
    this.exits.toLobby(signIn);
  }

  /** A message card in place of the table (loading, or why the 복기 cannot open). */
  private say(text: string, button?: string, onClick?: () => void): void {
    this.notice?.remove();
    const kids: Node[] = [el('p', { 'data-testid': 'replay-message' }, [text])];
    if (button && onClick) {
      const b = el('button', { class: 'btn primary', 'data-testid': 'replay-message-button' }, [button]);
      b.addEventListener('click', onClick);
      kids.push(b);
    }
    this.notice = el('div', { class: 'replay-backdrop replay-notice' }, [
      el('div', { class: 'card replay-sheet', 'data-testid': 'replay-notice', role: 'alert' }, kids),
    ]);
    document.body.append(this.notice);
  }

  private go(i: number, animate = false): void {
    this.source?.show(i, animate);
    this.update();
  }

  private play(): void {
    const s = this.source;
    if (!s || this.timer) return;
    const tick = (): void => {
      this.timer = null;
      if (this.closed || s.position >= s.last) return this.update();
      this.go(s.position + 1, true);
      this.timer = setTimeout(tick, BASE_MS / this.speed);
    };
    this.timer = setTimeout(tick, BASE_MS / this.speed);
    this.update();
  }

  private pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.update();
  }

  private button(label: string, testid: string, onClick: () => void, aria?: string): HTMLButtonElement {
    const b = el('button', { class: 'btn secondary replay-btn', 'data-testid': testid, 'aria-label': aria ?? label }, [
      label,
    ]);
    b.addEventListener('click', onClick);
    return b;
  }

  private buildBar(detail: ReplayDetail, t: Timeline): void {
    const s = this.source!;
    const pos = el('span', { class: 'replay-pos', 'data-testid': 'replay-pos' });
    const playBtn = this.button('재생', 'replay-play', () => (this.timer ? this.pause() : this.play()), '자동 재생');
    const speed = el('button', { class: 'btn ghost replay-btn', 'data-testid': 'replay-speed' }, ['1×']);
    speed.addEventListener('click', () => {
      this.speed = SPEEDS[(SPEEDS.indexOf(this.speed) + 1) % SPEEDS.length];
      speed.textContent = `${this.speed}×`;
    });
    const more = el('details', { class: 'replay-more' }, [
      el('summary', { 'data-testid': 'replay-more' }, ['저장']),
      this.button('기록 JSON', 'replay-save-json', () => saveRecord(detail)),
      ...(detail.game === 'poker' ? [this.button('핸드 기록', 'replay-save-text', () => savePokerText(detail))] : []),
      this.button(
        '링크 복사',
        'replay-copy-link',
        () => void navigator.clipboard?.writeText(replayLink(detail.gameId)),
      ),
    ]);
    const row1 = el('div', { class: 'replay-row' }, [
      this.button('|◀', 'replay-first', () => (this.pause(), this.go(0)), '처음으로'),
      this.button('◀', 'replay-back', () => (this.pause(), this.go(s.position - 1)), '한 수 뒤로'),
      pos,
      this.button('▶', 'replay-next', () => (this.pause(), this.go(s.position + 1, true)), '한 수 앞으로'),
      this.button('▶|', 'replay-last', () => (this.pause(), this.go(s.last)), '끝으로'),
      playBtn,
      speed,
      more,
    ]);
    const jump = el('select', { 'data-testid': 'replay-jump', 'aria-label': '판·라운드로 이동' }) as HTMLSelectElement;
    const marks = [{ index: 0, label: '처음' }, ...t.marks.filter((m) => m.index > 0), { index: s.last, label: '끝' }];
    for (const m of marks) jump.append(el('option', { value: String(m.index) }, [m.label]));
    jump.addEventListener('change', () => {
      // Read before pausing: pausing refreshes the bar, which puts the list back on the current position.
      const to = Number(jump.value);
      this.pause();
      this.go(to);
    });
    const seat = el('select', {
      'data-testid': 'replay-seat',
      'aria-label': '누구 자리에서 볼까요',
    }) as HTMLSelectElement;
    detail.players.forEach((p, i) => seat.append(el('option', { value: String(i) }, [p.name])));
    seat.addEventListener('change', () => (s.viewAs(Number(seat.value)), this.update()));
    const hands = this.button('모든 패', 'replay-hands', () => {
      const where = this.where();
      handsSheet(t.view.held(t.states[s.position]), where);
    });
    const proofChip = el('button', { class: 'btn ghost replay-btn replay-proof', 'data-testid': 'replay-proof' }, [
      '증명 확인 중…',
    ]);
    proofChip.addEventListener('click', () => this.proof && proofSheet(this.proof));
    const row2 = el('div', { class: 'replay-row' }, [jump, seat, hands, proofChip]);
    this.bar = el('div', { class: `replay-bar replay-${detail.game}`, 'data-testid': 'replay-bar' }, [row1, row2]);
    document.body.append(this.bar);
    // The table gets the screen above the bar (its scene relayouts to the smaller parent), so no card hides under it.
    document.body.classList.add('replaying');
    const fit = (): void =>
      document.documentElement.style.setProperty('--replay-bar', `${(this.bar?.offsetHeight ?? 0) + 8}px`);
    fit();
    this.barSize = new ResizeObserver(fit);
    this.barSize.observe(this.bar);
    this.refresh.push(() => {
      pos.textContent = `${s.position}/${s.last}`;
      playBtn.textContent = this.timer ? '멈춤' : '재생';
      let at = 0;
      marks.forEach((m, i) => {
        if (m.index <= s.position && m.index < s.last) at = i;
      });
      jump.selectedIndex = s.position >= s.last ? marks.length - 1 : at;
      const p = this.proof;
      proofChip.textContent = !p ? '증명 확인 중…' : p.ok ? '✓ 증명 통과' : '✗ 증명 실패';
      proofChip.classList.toggle('ok', !!p?.ok);
      proofChip.classList.toggle('bad', !!p && !p.ok);
      if (p) proofChip.dataset.ok = String(p.ok);
      this.bar!.dataset.position = String(s.position);
      this.bar!.dataset.last = String(s.last);
    });
    this.update();
  }

  private where(): string {
    const t = this.timeline!;
    const s = this.source!;
    const mark = t.view.markOf(t.states[s.position]);
    return `${mark ? `${mark} · ` : ''}${s.position}번째 동작 뒤`;
  }

  private update(): void {
    for (const f of this.refresh) f();
  }
}
