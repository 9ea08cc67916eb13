import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESENCE, LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { CODE_ALPHABET } from '../src/ids.ts';
import { REFUSALS } from '@joke/protocol';
import { failure, sql, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  // Presence is not what these tests are about: a member not heard from for awayAfterMs counts as gone and
  // hides the room from lists, which on a loaded box (two busy loops) happened between a create and a list.
  const patient = { awayAfterMs: 600_000, hostGraceMs: 600_000, emptyCloseMs: 600_000 };
  h = await startHarness({ databaseUrl: schema.url, presence: { ...DEFAULT_PRESENCE, ...patient } });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});
beforeEach(() => {
  h.mm.requests = [];
  h.mm.reply = { ok: true, workerId: 'w-test', shard: 0 };
});

describe('games.list', () => {
  it('describes every game from the engine alone (no sign-in needed)', async () => {
    const list = await h.anon.games.list.query();
    expect(list).toHaveLength(1);
    const g = list[0];
    expect(g).toMatchObject({ id: 'count', name: '숫자 세기', minPlayers: 2, maxPlayers: 4 });
    expect(g.modes).toEqual([
      { id: 'classic', name: '기본' },
      { id: 'duel', name: '1:1' },
    ]);
    expect(g.optionFields.map((f) => [f.key, f.label, f.kind])).toEqual([
      ['mode', '모드', 'choice'],
      ['target', '목표 숫자', 'integer'],
    ]);
    expect(g.optionFields[1]).toMatchObject({ min: 3, max: 30, defaultByMode: { classic: 5, duel: 5 } });
  });
});

describe('rooms.create', () => {
  it('makes the creator host in seat 0, fills option defaults and hands out an unambiguous invite code', async () => {
    const a = await h.guest('방장');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    expect(room).toMatchObject({
      game: 'count',
      gameName: '숫자 세기',
      mode: 'classic',
      modeName: '기본',
      status: 'waiting',
      hostId: a.id,
      hostName: '방장',
      isPrivate: false,
      seated: 1,
      maxSeats: 4,
      minPlayers: 3,
      openSeats: 3,
      options: { mode: 'classic', target: 5 },
      seats: [{ seat: 0, userId: a.id, name: '방장', bot: false }],
      gameRoomId: null,
      you: { seat: 0, spectating: false, isHost: true },
    });
    expect(room.code).toHaveLength(6);
    for (const ch of room.code!) expect(CODE_ALPHABET).toContain(ch);
    expect(room.code).not.toMatch(/[01ILO]/);
  });

  it("invalid options are refused with the engine's own Korean message", async () => {
    const a = await h.guest('설정왕');
    const f = await failure(a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel', target: 20 } }));
    expect(f.code).toBe('BAD_REQUEST');
    expect(f.message).toBe('1:1 모드에서는 목표 숫자가 10 이하여야 해요');
    expect(f.issues).toEqual([{ path: 'target', message: '1:1 모드에서는 목표 숫자가 10 이하여야 해요' }]);
    const g = await failure(a.api.rooms.create.mutate({ game: 'count', options: { target: 'many' } }));
    expect(g.code).toBe('BAD_REQUEST');
    expect(g.issues).toEqual([expect.objectContaining({ path: 'target' })]);
  });

  it('an unknown game is refused in Korean', async () => {
    const a = await h.guest('아무개');
    const f = await failure(a.api.rooms.create.mutate({ game: 'go-stop', options: {} }));
    expect(f).toMatchObject({ code: 'BAD_REQUEST', message: MSG.unknownGame('go-stop') });
    const proto = await failure(a.api.rooms.create.mutate({ game: '__proto__', options: {} }));
    expect(proto).toMatchObject({ code: 'BAD_REQUEST', message: MSG.unknownGame('__proto__') });
  });

  it('needs sign-in', async () => {
    const f = await failure(h.anon.rooms.create.mutate({ game: 'count', options: {} }));
    expect(f).toMatchObject({ code: 'UNAUTHORIZED', message: MSG.unauthenticated });
  });
});

describe('rooms.list / rooms.get', () => {
  it('lists public rooms with filters by game, open seats and progress; private rooms stay out', async () => {
    const a = await h.guest('목록A');
    const b = await h.guest('목록B');
    const open = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    const hidden = await a.api.rooms.create.mutate({ game: 'count', options: {}, isPrivate: true });
    const full = await b.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await b.api.rooms.addBot.mutate({ roomId: full.roomId });
    const playing = await b.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await b.api.rooms.addBot.mutate({ roomId: playing.roomId });
    await b.api.rooms.start.mutate({ roomId: playing.roomId });

    const ids = (rs: { roomId: string }[]) => rs.map((r) => r.roomId);
    const all = await a.api.rooms.list.query();
    expect(ids(all)).toEqual(expect.arrayContaining([open.roomId, full.roomId, playing.roomId]));
    expect(ids(all)).not.toContain(hidden.roomId);

    const withSeats = ids(await a.api.rooms.list.query({ hasOpenSeats: true }));
    expect(withSeats).toContain(open.roomId);
    expect(withSeats).not.toContain(full.roomId);
    const noSeats = ids(await a.api.rooms.list.query({ hasOpenSeats: false }));
    expect(noSeats).toContain(full.roomId);
    expect(noSeats).not.toContain(open.roomId);

    const inProgress = ids(await a.api.rooms.list.query({ inProgress: true }));
    expect(inProgress).toContain(playing.roomId);
    expect(inProgress).not.toContain(open.roomId);
    const waiting = ids(await a.api.rooms.list.query({ inProgress: false }));
    expect(waiting).toContain(open.roomId);
    expect(waiting).not.toContain(playing.roomId);

    expect(await a.api.rooms.list.query({ game: 'other' })).toEqual([]);
    const summary = all.find((r) => r.roomId === full.roomId)!;
    expect(summary).toMatchObject({ seated: 2, maxSeats: 2, openSeats: 0, hostName: '목록B', status: 'waiting' });
    expect(summary).not.toHaveProperty('code');
  });

  it('get shows seats and hides a private code from outsiders', async () => {
    const a = await h.guest('비밀A');
    const b = await h.guest('비밀B');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {}, isPrivate: true });
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).code).toBe(room.code);
    const seen = await b.api.rooms.get.query({ roomId: room.roomId });
    expect(seen.code).toBeNull();
    expect(seen.you).toEqual({ seat: null, spectating: false, isHost: false });
    expect(await failure(b.api.rooms.get.query({ roomId: 'r_nope' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.roomNotFound,
    });
  });
});

describe('rooms.get of a private room (issue 10)', () => {
  it('shows seat user ids, the host id and the game id to members only', async () => {
    const a = await h.guest('숨김A');
    const b = await h.guest('숨김B');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' }, isPrivate: true });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
    const member = await a.api.rooms.get.query({ roomId: room.roomId });
    expect(member.gameRoomId).toBe(started.gameRoomId);
    expect(member.seats.map((s) => s.userId)).toEqual([a.id, null]);
    expect(member.hostId).toBe(a.id);
    const outsider = await b.api.rooms.get.query({ roomId: room.roomId });
    expect(outsider).toMatchObject({ gameRoomId: null, hostId: '', code: null, spectators: [], status: 'playing' });
    expect(outsider.seats).toEqual([
      { seat: 0, userId: null, name: '숨김A', bot: false },
      { seat: 1, userId: null, name: member.seats[1].name, bot: true },
    ]);
    expect(JSON.stringify(outsider)).not.toContain(a.id);
    expect(JSON.stringify(outsider)).not.toContain(started.gameRoomId);
  });

  it('a public room stays fully visible (its game can be watched by anyone)', async () => {
    const a = await h.guest('공개A');
    const b = await h.guest('공개B');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
    const seen = await b.api.rooms.get.query({ roomId: room.roomId });
    expect([seen.gameRoomId, seen.seats[0].userId, seen.hostId]).toEqual([started.gameRoomId, a.id, a.id]);
  });
});

describe('rooms.join / leave / spectate', () => {
  it('joins by id or by code (any case, dashes allowed) into the lowest free seat; joining twice is harmless', async () => {
    const [a, b, c] = await Promise.all([h.guest('참가A'), h.guest('참가B'), h.guest('참가C')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    const j1 = await b.api.rooms.join.mutate({ roomId: room.roomId });
    expect(j1.you.seat).toBe(1);
    const code = room.code!.toLowerCase();
    const j2 = await c.api.rooms.join.mutate({ code: `${code.slice(0, 3)}-${code.slice(3)}` });
    expect(j2.you.seat).toBe(2);
    expect((await c.api.rooms.join.mutate({ roomId: room.roomId })).seated).toBe(3);
    await b.api.rooms.leave.mutate({ roomId: room.roomId });
    const d = await h.guest('참가D');
    expect((await d.api.rooms.join.mutate({ roomId: room.roomId })).you.seat).toBe(1);
  });

  it('a full room says "방이 가득 찼어요"', async () => {
    const [a, b, c] = await Promise.all([h.guest('가득A'), h.guest('가득B'), h.guest('가득C')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await b.api.rooms.join.mutate({ roomId: room.roomId });
    const f = await failure(c.api.rooms.join.mutate({ roomId: room.roomId }));
    expect(f).toMatchObject({ code: 'CONFLICT', message: '방이 가득 찼어요' });
  });

  it('many people racing for the last seats never overfill the room', async () => {
    const a = await h.guest('경쟁방장');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    const racers = await Promise.all(Array.from({ length: 8 }, (_, i) => h.guest(`경쟁${i}`)));
    const outcomes = await Promise.allSettled(racers.map((r) => r.api.rooms.join.mutate({ roomId: room.roomId })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    const after = await a.api.rooms.get.query({ roomId: room.roomId });
    expect(after.seats.map((s) => s.seat)).toEqual([0, 1, 2, 3]);
  });

  it('a private room is entered by code only', async () => {
    const [a, b] = await Promise.all([h.guest('초대A'), h.guest('초대B')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {}, isPrivate: true });
    const f = await failure(b.api.rooms.join.mutate({ roomId: room.roomId }));
    expect(f).toMatchObject({ code: 'FORBIDDEN', message: MSG.privateNeedsCode });
    expect(await failure(b.api.rooms.spectate.mutate({ roomId: room.roomId }))).toMatchObject({ code: 'FORBIDDEN' });
    expect((await b.api.rooms.join.mutate({ code: room.code! })).you.seat).toBe(1);
    // Once inside, the id is enough (e.g. to reconnect).
    expect((await b.api.rooms.join.mutate({ roomId: room.roomId })).you.seat).toBe(1);
  });

  it('bad references are refused in Korean', async () => {
    const a = await h.guest('엉뚱이');
    expect(await failure(a.api.rooms.join.mutate({ code: 'O0I1L!' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: MSG.badCode,
    });
    expect(await failure(a.api.rooms.join.mutate({ code: '222222' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(a.api.rooms.join.mutate({}))).toMatchObject({ code: 'BAD_REQUEST', message: MSG.roomRef });
    expect(await failure(a.api.rooms.join.mutate({ roomId: 'x', code: '222222' }))).toMatchObject({
      message: MSG.roomRef,
    });
  });

  it('leaving hands the host to the next person; the last person out closes the room', async () => {
    const [a, b] = await Promise.all([h.guest('떠남A'), h.guest('떠남B')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    await b.api.rooms.join.mutate({ roomId: room.roomId });
    expect(await a.api.rooms.leave.mutate({ roomId: room.roomId })).toEqual({
      roomId: room.roomId,
      closed: false,
      hostId: b.id,
    });
    const now = await b.api.rooms.get.query({ roomId: room.roomId });
    expect(now.you.isHost).toBe(true);
    expect(now.seats.map((s) => [s.seat, s.bot])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(await failure(a.api.rooms.leave.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.notMember,
    });
    expect((await b.api.rooms.leave.mutate({ roomId: room.roomId })).closed).toBe(true);
    expect(await failure(b.api.rooms.get.query({ roomId: room.roomId }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('spectators watch without a seat; a seated player may switch to watching before the start', async () => {
    const [a, b, c] = await Promise.all([h.guest('관전A'), h.guest('관전B'), h.guest('관전C')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    const watched = await b.api.rooms.spectate.mutate({ roomId: room.roomId });
    expect(watched.you).toEqual({ seat: null, spectating: true, isHost: false });
    expect(watched.spectators).toEqual([{ userId: b.id, name: '관전B' }]);
    expect(watched.spectatorCount).toBe(1);
    await c.api.rooms.join.mutate({ roomId: room.roomId });
    const switched = await c.api.rooms.spectate.mutate({ roomId: room.roomId });
    expect(switched.you).toEqual({ seat: null, spectating: true, isHost: false });
    expect(switched.seated).toBe(1);
    // And back: a spectator who joins leaves the gallery.
    const back = await b.api.rooms.join.mutate({ roomId: room.roomId });
    expect(back.you).toEqual({ seat: 1, spectating: false, isHost: false });
    expect(back.spectators.map((s) => s.userId)).toEqual([c.id]);
  });
});

describe('bots', () => {
  it('the host adds bots with Korean names and removes them; others may not', async () => {
    const [a, b] = await Promise.all([h.guest('봇주인'), h.guest('손님')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    await b.api.rooms.join.mutate({ roomId: room.roomId });
    const one = await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const two = await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const bots = two.seats.filter((s) => s.bot);
    expect(bots).toHaveLength(2);
    expect(bots[0]).toMatchObject({ seat: 2, userId: null, name: one.seats[2].name });
    for (const bot of bots) expect(bot.name).toMatch(/^봇 [가-힣]+$/);
    expect(new Set(bots.map((x) => x.name)).size).toBe(2);
    expect(await failure(a.api.rooms.addBot.mutate({ roomId: room.roomId }))).toMatchObject({
      message: MSG.roomFull,
    });
    expect(await failure(b.api.rooms.addBot.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.notHost,
    });
    expect(await failure(b.api.rooms.removeBot.mutate({ roomId: room.roomId, seat: 2 }))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.notHost,
    });
    expect(await failure(a.api.rooms.removeBot.mutate({ roomId: room.roomId, seat: 1 }))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.noBotThere,
    });
    const after = await a.api.rooms.removeBot.mutate({ roomId: room.roomId, seat: 2 });
    expect(after.seats.map((s) => s.seat)).toEqual([0, 1, 3]);
  });
});

describe('rooms.start', () => {
  it('starting with too few players says how many are needed', async () => {
    const a = await h.guest('혼자');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const f = await failure(a.api.rooms.start.mutate({ roomId: room.roomId }));
    expect(f).toMatchObject({ code: 'CONFLICT', message: MSG.tooFew(3, 2) });
    expect(f.message).toBe('인원이 부족해요. 최소 3명이 있어야 시작할 수 있어요 (지금 2명)');
    expect(h.mm.requests).toHaveLength(0);
  });

  it('starting with more players than the mode allows says the maximum (e.g. after an engine upgrade lowered it)', async () => {
    const a = await h.guest('초과');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    // The room was sized by an older playerRange: put a third seat in behind the API's back.
    await h.lobby.db.seat.create({ data: { roomId: room.roomId, seat: 2, botName: '봇 옛날' } });
    const f = await failure(a.api.rooms.start.mutate({ roomId: room.roomId }));
    expect(f).toMatchObject({ code: 'CONFLICT', message: '인원이 너무 많아요. 최대 2명까지 할 수 있어요 (지금 3명)' });
    expect(h.mm.requests).toHaveLength(0);
  });

  it('only the host may start', async () => {
    const [a, b] = await Promise.all([h.guest('주인'), h.guest('손님객')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await b.api.rooms.join.mutate({ roomId: room.roomId });
    expect(await failure(b.api.rooms.start.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.notHost,
    });
  });

  it('asks the matchmaker with every seat (bots flagged) and returns the gateway room id', async () => {
    const [a, b] = await Promise.all([h.guest('시작A'), h.guest('시작B')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { target: 7 } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    await b.api.rooms.join.mutate({ roomId: room.roomId });
    const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
    expect(started.gameRoomId).toMatch(/^g_[A-Za-z0-9]{16}$/);
    expect(started.workerId).toBe('w-test');
    expect(h.mm.requests).toEqual([
      {
        roomId: started.gameRoomId,
        game: 'count',
        options: { mode: 'classic', target: 7 },
        players: [
          { id: a.id, name: '시작A', bot: false },
          { id: 'bot_1', name: started.room.seats[1].name, bot: true },
          { id: b.id, name: '시작B', bot: false },
        ],
        // A public room: quick phrases and emotes among the players only (issue 17 chat policy).
        chat: { freeText: false, spectators: false },
      },
    ]);
    expect(started.room).toMatchObject({ status: 'playing', gameRoomId: started.gameRoomId, gamesPlayed: 1 });
    const seenByB = await b.api.rooms.get.query({ roomId: room.roomId });
    expect(seenByB.gameRoomId).toBe(started.gameRoomId);

    const c = await h.guest('늦은C');
    expect(await failure(c.api.rooms.join.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.joinWhilePlaying,
    });
    expect((await c.api.rooms.spectate.mutate({ roomId: room.roomId })).gameRoomId).toBe(started.gameRoomId);
    expect(await failure(a.api.rooms.start.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.alreadyStarted,
    });
    expect(await failure(a.api.rooms.addBot.mutate({ roomId: room.roomId }))).toMatchObject({ code: 'CONFLICT' });
    expect(await failure(b.api.rooms.spectate.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.spectateWhileSeated,
    });
  });

  it('two starts at once place exactly one game', async () => {
    const a = await h.guest('동시');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const outcomes = await Promise.allSettled([
      a.api.rooms.start.mutate({ roomId: room.roomId }),
      a.api.rooms.start.mutate({ roomId: room.roomId }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(h.mm.requests).toHaveLength(1);
  });

  it('a refusal or silence from the matchmaker leaves the room waiting, with a Korean message', async () => {
    const a = await h.guest('거절');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    h.mm.reply = { ok: false, code: 'noWorkers', reason: '빈 서버가 없어요' };
    expect(await failure(a.api.rooms.start.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.matchmakerRefused('빈 서버가 없어요'),
    });
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('waiting');

    // Every game server full (issue 37): unavailable for now, with the machine code beside the Korean reason.
    h.mm.reply = { ok: false, code: 'capacity', reason: REFUSALS.capacity };
    expect(await failure(a.api.rooms.start.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: MSG.matchmakerRefused(REFUSALS.capacity),
      refusal: 'capacity',
    });
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('waiting');

    h.mm.close();
    try {
      expect(await failure(a.api.rooms.start.mutate({ roomId: room.roomId }))).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: MSG.matchmakerDown,
      });
      expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('waiting');
    } finally {
      h.mm = new (h.mm.constructor as any)(h.bus);
    }
  });
});

describe('sweeping abandoned rooms', () => {
  it('closes idle waiting rooms and frees tables whose start or game never finished', async () => {
    const a = await h.guest('잠수');
    const idle = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    const fresh = await a.api.rooms.create.mutate({ game: 'count', options: {} });
    const stuck = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: stuck.roomId });
    await a.api.rooms.start.mutate({ roomId: stuck.roomId });
    const hoursAgo = (n: number) => new Date(Date.now() - n * 3600_000);
    await sql(schema.schema, 'UPDATE rooms SET updated_at = $2 WHERE id = $1', [idle.roomId, hoursAgo(7)]);
    await sql(schema.schema, 'UPDATE rooms SET updated_at = $2 WHERE id = $1', [stuck.roomId, hoursAgo(13)]);

    const report = await h.lobby.sweep();
    expect(report.closed).toBeGreaterThanOrEqual(1);
    expect(report.unstuckGames).toBeGreaterThanOrEqual(1);
    expect(await failure(a.api.rooms.get.query({ roomId: idle.roomId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await a.api.rooms.get.query({ roomId: fresh.roomId })).status).toBe('waiting');
    expect(await a.api.rooms.get.query({ roomId: stuck.roomId })).toMatchObject({
      status: 'waiting',
      gameRoomId: null,
    });
  });
});
