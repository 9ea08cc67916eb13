/**
 * The lobby: an HTML overlay (forms) over a canvas backdrop of scattered cards.
 * Opening a table hands the shared gateway connection to the table scene.
 * While the lobby is up the canvas behind it rests (render-pace.ts): the
 * backdrop is drawn once (again on resize) and the game loop sleeps, so a
 * player sitting in the lobby costs no frames (issue 41: it drew 60 a second).
 */
import Phaser from 'phaser';
import { fitView } from '../display.ts';
import type { RoomDetail } from '@joke/lobby';
import { gateway } from '../app.ts';
import { lobby } from '../net/trpc.ts';
import { paceOf } from '../render-pace.ts';
import { NetworkSource } from '../table-kit/source.ts';
import { lively } from '../table-kit/lively-source.ts';
import { C } from '../table-kit/theme.ts';
import { backTexture, faceTexture } from '../table-kit/textures.ts';
import { LobbyApp, type LobbyScreen } from '../ui/lobby.ts';
import type { TableSceneData } from '../table-kit/table-scene.ts';
import { TutorialSession } from '../tutorial/session.ts';
import { ReplaySession } from '../replay/session.ts';
import { clearReplayFromUrl, replayIdFromUrl, showReplayInUrl } from '../replay/route.ts';

/** The table scene of each game (Phaser scene keys). */
const TABLE_SCENES: Record<string, string> = { 'one-card': 'table', poker: 'poker', hula: 'hula' };

export class LobbyScene extends Phaser.Scene {
  private app: LobbyApp | null = null;
  private screen: LobbyScreen | undefined;
  private drifting: Phaser.GameObjects.Image[] = [];

  constructor() {
    super('lobby');
  }

  init(data: { screen?: LobbyScreen }): void {
    this.screen = data?.screen;
  }

  create(): void {
    this.cameras.main.setBackgroundColor(C.felt);
    this.drifting = [];
    const faces = [
      faceTexture(this, { id: 'a', kind: 'std', suit: 'H', rank: 1 }),
      faceTexture(this, { id: 'b', kind: 'joker', joker: 'color' }),
      faceTexture(this, { id: 'c', kind: 'std', suit: 'S', rank: 7 }),
      faceTexture(this, { id: 'd', kind: 'num', color: 'B', value: 5 }),
      backTexture(this, 'classic'),
      faceTexture(this, { id: 'e', kind: 'wild' }),
    ];
    faces.forEach((key) => {
      const img = this.add.image(0, 0, key).setDisplaySize(90, 126).setAlpha(0.13);
      this.drifting.push(img);
    });
    this.place();
    const place = () => this.place();
    this.scale.on(Phaser.Scale.Events.RESIZE, place);
    this.events.once('shutdown', () => this.scale.off(Phaser.Scale.Events.RESIZE, place));
    // A 복기 link opens the 복기 first (the lobby follows when it is closed, or to sign in for a private game).
    const linked = this.screen ? null : replayIdFromUrl();
    if (linked) {
      openReplay(this.game, linked);
      return;
    }
    this.app = new LobbyApp(
      {
        enterTable: (room, spectate) => void this.enterTable(room, spectate),
        enterMatch: (roomId, game, title) => void this.enterMatch(roomId, game, title),
        // Back to where the learner came from: the room list when signed in, else the landing page.
        startTutorial: (game) =>
          new TutorialSession(
            this.game,
            game,
            () => this.game.scene.start('lobby'),
            (key, data) => this.scene.start(key, data),
          ).start(),
        openReplay: (gameId) => openReplay(this.game, gameId),
      },
      this.screen,
    );
    paceOf(this.game)?.rest(true);
    this.events.once('shutdown', () => {
      paceOf(this.game)?.rest(false);
      this.app?.destroy();
      this.app = null;
    });
  }

  /** Still cards spread over the view; the loop sleeps behind the lobby, so they do not drift. */
  private place(): void {
    const w = fitView(this).width;
    const h = fitView(this).height;
    this.drifting.forEach((img, i) => {
      img.setPosition(((i + 0.5) / this.drifting.length) * w, h * (0.2 + ((i * 37) % 60) / 100));
      img.setRotation(-0.3 + ((i * 0.23) % 0.6));
    });
  }

  /** A quick-match table has no lobby room: leaving it goes back to the room list. */
  private async enterMatch(gameRoomId: string, game: string, title: string): Promise<void> {
    const gw = await gateway();
    const data: TableSceneData<unknown, unknown> = {
      source: lively(new NetworkSource(gw, gameRoomId, false), {
        gw,
        game: this.game,
        isPrivate: false,
        replay: () => openReplay(this.game, gameRoomId),
      }),
      title,
      onExit: () => this.game.scene.start('lobby', { screen: { name: 'list' } satisfies LobbyScreen }),
    };
    this.scene.start(TABLE_SCENES[game] ?? 'table', data);
  }

  private async enterTable(room: RoomDetail, spectate: boolean): Promise<void> {
    if (!room.gameRoomId) return;
    const gw = await gateway();
    // Each game has its own table scene; all read the same gateway source with their own view types.
    const data: TableSceneData<unknown, unknown> = {
      source: lively(new NetworkSource(gw, room.gameRoomId, spectate), {
        gw,
        game: this.game,
        isPrivate: room.isPrivate,
        replay: () => {
          void lobby.rooms.leave.mutate({ roomId: room.roomId }).catch(() => undefined);
          localStorage.removeItem('joke.room');
          openReplay(this.game, room.gameRoomId!);
        },
      }),
      title: room.gameName,
      // A seated player of a lobby room may play on with the same table (a spectator only watches).
      again: !spectate,
      onExit: (to, info) => {
        if (to === 'lobby' && (info.finished || spectate))
          void lobby.rooms.leave.mutate({ roomId: room.roomId }).catch(() => undefined);
        const screen: LobbyScreen =
          to === 'lobby'
            ? { name: 'list' }
            : { name: 'room', roomId: room.roomId, leftGame: room.gameRoomId ?? undefined, again: to === 'again' };
        if (to === 'lobby' && (info.finished || spectate)) localStorage.removeItem('joke.room');
        this.game.scene.start('lobby', { screen });
      },
    };
    this.scene.start(TABLE_SCENES[room.game] ?? 'table', data);
  }
}

/** Opens the 복기 of `gameId` in place of whatever is shown; closing it (or signing in first) goes to the lobby. */
export function openReplay(game: Phaser.Game, gameId: string): void {
  showReplayInUrl(gameId);
  void new ReplaySession(game, gameId, {
    toLobby: (signIn) => {
      if (!signIn) clearReplayFromUrl();
      const screen: LobbyScreen = signIn ? { name: 'login' } : { name: 'list' };
      game.scene.start('lobby', { screen });
    },
  }).start();
}
