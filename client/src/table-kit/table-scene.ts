/**
 * What every game's table scene (원카드 `table`, `poker`, `hula`) does the same way, so a fix lands once:
 * the lobby's `TableSceneData`, the frame source's wiring (frames counted, connection kept, errors toasted,
 * a fatal one or a table gone before its first frame closes the table after 1.5 s), one action in flight
 * at a time (`busy` greys the buttons until the answer; a refusal is toasted with the game's reason),
 * resize and live-settings relayout, shutdown (chat place cleared, resize listener off, source stopped),
 * the 나가기 confirmation while seated in a running game, the result panel's buttons, and what the test
 * hook reads (`snapshot`, `receivedFrames`).
 * State: the frame last drawn, the busy flag, the connection status, frames seen; `init` resets them, as
 * Phaser reuses one scene object for every table of its game. An answer that arrives after the table
 * closed changes nothing on screen.
 */
import Phaser from 'phaser';
import type { PresenceEntry } from '@joke/protocol';
import type { ConnStatus } from '../net/gateway.ts';
import { clearChatPlace } from '../chat/chat-place.ts';
import { confirmDialog } from '../ui/sheets.ts';
import { followTableSettings } from './live-settings.ts';
import type { Toasts } from './overlays.ts';
import { resultActions, type ResultAction, type TableExit } from './result-actions.ts';
import type { TableFrame, TableSource } from './source.ts';

/** What the lobby hands a table scene; each game's scene reads it with its own action and view types. */
export interface TableSceneData<A, V> {
  source: TableSource<A, V>;
  title: string;
  /**
   * Words the table's title starts with, when the table is not a live game ("복기 · 포커"): each game's
   * title.ts keeps them in every variant it falls back to. Live tables leave it out.
   */
  lead?: string;
  /**
   * A 복기 (replay/session.ts): nothing can be played, so no live action button is drawn, and the result
   * panel offers only 닫기 (the replay's own bar is the way out, not 대기실로 / 로비로).
   */
  replay?: boolean;
  /** Called after the table closed itself: 한 판 더, back to the waiting room, or to the lobby list. */
  onExit: (to: TableExit, info: { finished: boolean }) => void;
  /** The table belongs to a lobby room the players can play on in: the result offers 한 판 더. */
  again?: boolean;
  /** A tap the table refused, with its reason (the tutorial's coach repeats it). */
  onRefused?: (reason: string) => void;
  /** A greyed button was tapped: the action it would send (null: nothing chosen yet). */
  onRefusedAction?: (action: A | null) => void;
}

/** How a sent action's answer is taken (see `send`). */
export interface SendOptions {
  /** Runs when the game accepted the action, before the redraw (clear a selection, reset a bar). */
  accepted?: () => void;
  /** Sent beside whatever is in flight, without greying the buttons (원카드!, raced by everyone). */
  concurrent?: boolean;
  /** Runs on every answer, even after the table closed: the caller's own bookkeeping of the press. */
  answered?: () => void;
}

export abstract class TableSceneBase<A, V extends { finished: boolean }> extends Phaser.Scene {
  protected data_!: TableSceneData<A, V>;
  protected source!: TableSource<A, V>;
  /** The last frame the source delivered: the server's view is the truth of what is drawn. */
  protected frame: TableFrame<V> | null = null;
  /** One of our actions is on its way: buttons are greyed until its answer. */
  protected busy = false;
  protected connection: ConnStatus = 'idle';
  protected framesSeen = 0;
  /** Where refusals and the table's notices show (each scene makes its own in `create`). */
  protected abstract toasts: Toasts;

  /** Places everything for the current screen size and frame, then redraws. */
  protected abstract relayout(): void;
  /** Redraws from the current frame and local state (buttons follow `busy`). */
  protected abstract redraw(): void;
  /** A new frame, already stored in `frame`; `prev` is the one before it (null for the first). */
  protected abstract onFrame(f: TableFrame<V>, prev: TableFrame<V> | null): void;
  /** Closes what the scene drew over the table (result panel, pickers) when it shuts down. */
  protected abstract onClose(): void;
  /** True while the viewer still plays in a running game: leaving asks first. */
  protected abstract playing(): boolean;
  /** For the test hook: what is drawn where (canvas pixels) and what the controls say. */
  abstract snapshot(): Record<string, unknown>;

  init(data: TableSceneData<A, V>): void {
    this.data_ = data;
    this.source = data.source;
    this.frame = null;
    this.busy = false;
    this.framesSeen = 0;
  }

  /** Called last in each scene's `create`: listeners on, first layout, then the source starts delivering. */
  protected openTable(): void {
    // 4-colour deck and large text apply to an open table too (§9 접근성).
    followTableSettings(this, () => this.relayout());
    this.scale.on('resize', this.onResize, this);
    this.events.once('shutdown', () => {
      clearChatPlace();
      this.scale.off('resize', this.onResize, this);
      this.source.stop();
      this.onClose();
    });
    this.relayout();
    this.source.start({
      frame: (f) => {
        const prev = this.frame;
        this.frame = f;
        this.framesSeen++;
        this.onFrame(f, prev);
      },
      presence: (p) => this.onPresence(p),
      connection: (s) => {
        this.connection = s;
        this.onConnection(s);
      },
      error: (message, fatal, code) => {
        this.toasts.show(message, 'warn');
        // A signed-out socket cannot play on; a table that no longer exists has nothing to show.
        if (fatal || (code === 'noRoom' && !this.frame)) this.time.delayedCall(1500, () => this.exit('lobby'));
      },
    });
  }

  /** Presence between frames (who is connected); frames carry it too. */
  protected onPresence(_p: PresenceEntry[]): void {}

  /** The connection's status changed (already stored in `connection`): show it as the game does. */
  protected onConnection(_s: ConnStatus): void {}

  private onResize(size: Phaser.Structs.Size): void {
    this.cameras.resize(size.width, size.height);
    this.relayout();
  }

  /**
   * Sends one action. Unless `concurrent`, a second send while one is in flight is dropped and the
   * buttons are greyed until the answer. A refusal is toasted with the game's reason; either way the
   * table redraws, unless it closed meanwhile.
   */
  protected send(action: A, opts: SendOptions = {}): void {
    if (this.busy && !opts.concurrent) return;
    if (!opts.concurrent) this.busy = true;
    this.redraw();
    void this.source.act(action).then((r) => {
      if (!opts.concurrent) this.busy = false;
      opts.answered?.();
      if (!this.sys.isActive()) return;
      if (r.ok) opts.accepted?.();
      else this.toasts.show(r.reason, 'warn');
      this.redraw();
    });
  }

  /** 나가기: while seated in a running game the clock plays my turns, so ask first. */
  protected leave(): void {
    if (this.playing())
      confirmDialog('게임 중에 나가면 내 차례는 시간이 지나 자동으로 진행돼요. 나갈까요?', '나가기', () =>
        this.exit('lobby'),
      );
    else this.exit('lobby');
  }

  /** Closes the table (its shutdown stops the source), then tells the lobby where to go. */
  protected exit(to: TableExit): void {
    const cb = this.data_.onExit;
    const finished = this.frame?.view.finished ?? false;
    this.scene.stop();
    cb(to, { finished });
  }

  /** The buttons under the result panel: 한 판 더 / 대기실로 / 로비로, or 닫기 in a 복기. */
  protected resultButtons(panel: { close(): void }): ResultAction[] {
    return resultActions(this.data_.replay, panel, (to) => this.exit(to), this.data_.again);
  }

  /** Frame-level inspection for tests (what this table received: spectators never see hidden cards). */
  receivedFrames(): string[] {
    return this.source.frames();
  }
}
