/**
 * The lobby's scene: a canvas backdrop of scattered cards behind the DOM lobby, and the routes out
 * of the lobby (`lobbyRoutesFor`: a table, a quick-match table, the tutorial, a 복기).
 * The DOM lobby itself is mounted by lobby-shell.ts, before Phaser loads (issue 41: first content in
 * 1 s); this scene shows it again when a table, the tutorial or a 복기 hands back (`scene.start('lobby',
 * { screen })`) and hides it when it stops. Its first start, when the game chunk boots behind a lobby
 * already shown (`{ boot: true }`), leaves the DOM alone: the player may be typing.
 * While the lobby is up the canvas behind it rests (render-pace.ts): the backdrop is drawn once (again
 * on resize) and the game loop sleeps, so a player sitting in the lobby costs no frames (issue 41: it
 * drew 60 a second).
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
import type { LobbyCallbacks, LobbyScreen } from '../ui/lobby.ts';
import { hideLobby, showLobby } from '../lobby-shell.ts';
import type { TableSceneData } from '../table-kit/table-scene.ts';
import { TutorialSession } from '../tutorial/session.ts';
import { ReplaySession } from '../replay/session.ts';
import { clearReplayFromUrl, showReplayInUrl } from '../replay/route.ts';

/** What starts the lobby scene: the screen to show, or `boot` for the first start behind a shown lobby. */
export interface LobbySceneData {
  screen?: LobbyScreen;
  boot?: boolean;
}

/** Emitted on the game's events each time the lobby scene is up (main.ts waits for the first). */
export const LOBBY_UP = 'joke-lobby-up';

/** The table scene of each game (Phaser scene keys). */
const TABLE_SCENES: Record<string, string> = { 'one-card': 'table', poker: 'poker', hula: 'hula' };

export class LobbyScene extends Phaser.Scene {
  private data_: LobbySceneData = {};
  private drifting: Phaser.GameObjects.Image[] = [];

  constructor() {
    super('lobby');
  }

  init(data: LobbySceneData | undefined): void {
    this.data_ = data ?? {};
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
    if (!this.data_.boot) showLobby(this.data_.screen);
    paceOf(this.game)?.rest(true);
    this.events.once('shutdown', () => {
      paceOf(this.game)?.rest(false);
      hideLobby();
    });
    this.game.events.emit(LOBBY_UP);
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
}

/** Starts `key` in place of the lobby scene (which hides the DOM lobby as it stops). */
function leaveLobbyFor(game: Phaser.Game, key: string, data: object): void {
  const scene = game.scene.getScene('lobby');
  if (scene?.sys.isActive()) scene.scene.start(key, data);
  else game.scene.start(key, data);
}

const backToLobby = (game: Phaser.Game, screen?: LobbyScreen): void => {
  game.scene.start('lobby', { screen } satisfies LobbySceneData);
};

/** The DOM lobby's ways out, over this game (lobby-shell.ts calls them once the game chunk has loaded). */
export function lobbyRoutesFor(game: Phaser.Game): LobbyCallbacks {
  return {
    enterTable: (room, spectate) => void enterTable(game, room, spectate),
    enterMatch: (roomId, which, title) => void enterMatch(game, roomId, which, title),
    // Back to where the learner came from: the room list when signed in, else the landing page.
    startTutorial: (which) =>
      new TutorialSession(
        game,
        which,
        () => backToLobby(game),
        (key, data) => leaveLobbyFor(game, key, data),
      ).start(),
    openReplay: (gameId) => openReplay(game, gameId),
  };
}

/** A quick-match table has no lobby room: leaving it goes back to the room list. */
async function enterMatch(game: Phaser.Game, gameRoomId: string, which: string, title: string): Promise<void> {
  const gw = await gateway();
  const data: TableSceneData<unknown, unknown> = {
    source: lively(new NetworkSource(gw, gameRoomId, false), {
      gw,
      game,
      isPrivate: false,
      replay: () => openReplay(game, gameRoomId),
    }),
    title,
    onExit: () => backToLobby(game, { name: 'list' }),
  };
  leaveLobbyFor(game, TABLE_SCENES[which] ?? 'table', data);
}

async function enterTable(game: Phaser.Game, room: RoomDetail, spectate: boolean): Promise<void> {
  if (!room.gameRoomId) return;
  const gw = await gateway();
  // Each game has its own table scene; all read the same gateway source with their own view types.
  const data: TableSceneData<unknown, unknown> = {
    source: lively(new NetworkSource(gw, room.gameRoomId, spectate), {
      gw,
      game,
      isPrivate: room.isPrivate,
      replay: () => {
        void lobby.rooms.leave.mutate({ roomId: room.roomId }).catch(() => undefined);
        localStorage.removeItem('joke.room');
        openReplay(game, room.gameRoomId!);
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
      backToLobby(game, screen);
    },
  };
  leaveLobbyFor(game, TABLE_SCENES[room.game] ?? 'table', data);
}

/** Opens the 복기 of `gameId` in place of whatever is shown; closing it (or signing in first) goes to the lobby. */
export function openReplay(game: Phaser.Game, gameId: string): void {
  showReplayInUrl(gameId);
  void new ReplaySession(game, gameId, {
    toLobby: (signIn) => {
      if (!signIn) clearReplayFromUrl();
      backToLobby(game, signIn ? { name: 'login' } : { name: 'list' });
    },
  }).start();
}
