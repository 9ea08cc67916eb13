/**
 * One tutorial hand in the page: the game's real table scene over the engine
 * (no server, no sign-in), a coach bar that says in one line what to do and
 * why and highlights the learner's legal moves, an explanation when a move
 * is refused, and a summary with 다시 하기 / 로비로 / 규칙 보기 at the end.
 */
import type Phaser from 'phaser';
import type { GameAction, GameViewBase } from '@joke/engine/client';
import type { ActResult } from '../net/gateway.ts';
import type { TableFrame, TableHandlers, TableSource } from '../table-kit/source.ts';
import { reducedMotion } from '../settings.ts';
import { openGameRules } from '../ui/rules/game-rules.ts';
import { el } from '../ui/dom.ts';
import { coachLine } from './coach.ts';
import { LESSONS, type Lesson, type TutorialGame } from './lessons.ts';
import { learnerMoves, type Move } from './moves.ts';
import { lessonSource } from './session-state.ts';
import './tutorial.css';

/** Bots wait this long so a learner can follow each move; instant with animations off. */
const BOT_DELAY_MS = 1200;

/** The highlight row: each kind of move once (훌라's eight possible discards are one "버리기"). */
function moveChips(moves: Move[]): { key: string; label: string }[] {
  const out = new Map<string, string>();
  for (const m of moves) {
    if (m.key === 'discard') out.set('discard', '버리기 (한 장 골라서)');
    else if (!out.has(m.key) || m.key === 'meld' || m.key === 'layOff') out.set(`${m.key}:${m.label}`, m.label);
  }
  return [...out].map(([key, label]) => ({ key: key.split(':')[0], label }));
}

function cardsOf(m: Move): string[] {
  const a = m.action as { cardIds?: string[]; cardId?: string };
  return a.cardIds ?? (a.cardId ? [a.cardId] : []);
}

class CoachedSource implements TableSource<GameAction, GameViewBase> {
  readonly roomId = 'tutorial';
  readonly spectate = false;

  constructor(
    private readonly inner: ReturnType<typeof lessonSource>,
    private readonly onView: (f: TableFrame<GameViewBase>) => void,
    private readonly onRefused: (reason: string) => void,
  ) {}

  start(h: TableHandlers<GameViewBase>): void {
    this.inner.start({
      ...h,
      frame: (f) => {
        h.frame(f);
        this.onView(f);
      },
    });
  }

  async act(action: GameAction): Promise<ActResult> {
    const r = await this.inner.act(action);
    if (!r.ok) this.onRefused(r.reason);
    return r;
  }

  stop(): void {
    this.inner.stop();
  }

  serverNow(): number {
    return this.inner.serverNow();
  }

  frames(): string[] {
    return this.inner.frames();
  }
}

export class TutorialSession {
  private readonly bar: HTMLElement;
  private readonly line: HTMLElement;
  private readonly chips: HTMLElement;
  private readonly note: HTMLElement;
  private summary: HTMLElement | null = null;
  private readonly lesson: Lesson;
  private closed = false;
  private summaryDue: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly game: Phaser.Game,
    readonly which: TutorialGame,
    private readonly toLobby: () => void,
    /** Opens the table scene (from the lobby: replacing the lobby scene, as a real table does). */
    private readonly open: (key: string, data: object) => void = (key, data) => game.scene.start(key, data),
  ) {
    this.lesson = LESSONS[which];
    this.line = el('p', { class: 'coach-line', 'data-testid': 'coach-line', 'aria-live': 'polite' });
    this.chips = el('div', { class: 'coach-moves', 'data-testid': 'coach-moves' });
    this.note = el('p', { class: 'coach-note', 'data-testid': 'coach-note' });
    this.note.hidden = true;
    // Each table leaves a different band free on a phone: the bar sits there (tutorial.css).
    this.bar = el('div', { class: `coach coach-${which}`, 'data-testid': 'coach' }, [this.line, this.chips, this.note]);
  }

  /** Opens the lesson's table scene. */
  start(): void {
    document.body.append(this.bar);
    const inner = lessonSource(this.lesson, reducedMotion() ? 1 : BOT_DELAY_MS);
    const source = new CoachedSource(
      inner,
      (f) => this.onView(f, inner.over),
      (reason) => this.explain(reason),
    );
    this.open(this.lesson.scene, {
      source,
      title: this.lesson.title,
      onRefused: (reason: string) => this.explain(reason),
      onRefusedAction: (action: GameAction | null) => {
        const why = action === null ? '먼저 카드를 골라 주세요' : inner.judge(action);
        if (why) this.explain(why);
      },
      onExit: () => {
        this.close();
        this.toLobby();
      },
    });
  }

  close(): void {
    this.closed = true;
    if (this.summaryDue) clearTimeout(this.summaryDue);
    this.bar.remove();
    this.summary?.remove();
    this.summary = null;
  }

  private onView(f: TableFrame<GameViewBase>, over: boolean): void {
    if (this.closed) return;
    const moves = over ? [] : learnerMoves(this.which, f.view);
    this.line.textContent = coachLine(this.which, f.view, moves);
    this.chips.replaceChildren(
      ...moveChips(moves).map((c) => el('span', { class: 'coach-move', 'data-move': c.key }, [c.label])),
    );
    this.chips.hidden = moves.length === 0;
    // What is highlighted, readable by tests and assistive tools: the control and the cards it moves.
    this.bar.dataset.moves = JSON.stringify(moves.map((m) => ({ key: m.key, label: m.label, cards: cardsOf(m) })));
    this.bar.dataset.myTurn = String(moves.length > 0);
    this.bar.dataset.seq = String(f.seq);
    this.note.hidden = true;
    // The last move stays in view a moment (a showdown, the last card) before the summary covers it.
    if (over && !this.summaryDue)
      this.summaryDue = setTimeout(() => this.showSummary(this.line.textContent ?? ''), reducedMotion() ? 0 : 2500);
  }

  /** A refused move: the engine's own reason, in Korean, under the coach line. */
  explain(reason: string): void {
    this.note.textContent = `그렇게는 할 수 없어요: ${reason}`;
    this.note.hidden = false;
  }

  private showSummary(outcome: string): void {
    if (this.closed) return;
    const again = el('button', { class: 'btn primary', 'data-testid': 'tutorial-again' }, ['다시 하기']);
    const lobby = el('button', { class: 'btn secondary', 'data-testid': 'tutorial-lobby' }, ['로비로']);
    const rules = el('button', { class: 'btn ghost', 'data-testid': 'tutorial-rules' }, ['규칙 보기']);
    const panel = el('div', { class: 'card tutorial-summary', 'data-testid': 'tutorial-summary', role: 'dialog' }, [
      el('h2', {}, ['연습 끝!']),
      el('p', { class: 'outcome' }, [outcome]),
      el(
        'ul',
        {},
        this.lesson.summary.map((s) => el('li', {}, [s])),
      ),
      el('div', { class: 'tutorial-buttons' }, [again, lobby, rules]),
    ]);
    again.addEventListener('click', () => {
      const game = this.game;
      const scene = this.lesson.scene;
      this.close();
      game.scene.stop(scene);
      new TutorialSession(game, this.which, this.toLobby).start();
    });
    lobby.addEventListener('click', () => {
      this.close();
      this.game.scene.stop(this.lesson.scene);
      this.toLobby();
    });
    rules.addEventListener('click', () => openGameRules(this.which));
    // The summary says it all now; the bar would show through its backdrop.
    this.bar.hidden = true;
    this.summary = el('div', { class: 'tutorial-summary-backdrop' }, [panel]);
    document.body.append(this.summary);
  }
}
