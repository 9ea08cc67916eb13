import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPlayerToken, verifyPlayerToken } from '@joke/protocol/auth';
import { LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { clientFor, failure, JWT_SECRET, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

describe('auth.guest', () => {
  it('signs a token the gateway accepts, with the trimmed nickname as its name', async () => {
    const me = await h.anon.auth.guest.mutate({ nickname: '  민수  ' });
    expect(me.nickname).toBe('민수');
    expect(me.userId).toMatch(/^u_[A-Za-z0-9]{16}$/);
    const claims = await verifyPlayerToken(JWT_SECRET, me.token);
    expect(claims).toEqual({ sub: me.userId, name: '민수' });
  });

  it.each([
    ['', MSG.nicknameLength],
    ['가', MSG.nicknameLength],
    ['   가   ', MSG.nicknameLength],
    ['가나다라마바사아자차카타파', MSG.nicknameLength],
    ['민\u0000수', MSG.nicknameControl],
    ['민\t수', MSG.nicknameControl],
    ['민\n수', MSG.nicknameControl],
    ['민\u200b수', MSG.nicknameControl],
    // Issue 10: lone surrogate halves, invisible fillers, bidi overrides, half-width forms.
    ['민\ud800수', MSG.nicknameControl],
    ['\udc00가나', MSG.nicknameControl],
    ['\u3164\u3164', MSG.nicknameControl],
    ['민\u115f수', MSG.nicknameControl],
    ['민\uffa0수', MSG.nicknameControl],
    ['민\u202e수', MSG.nicknameControl],
    ['민수\ufe0f', MSG.nicknameControl],
    ['민\u2800수', MSG.nicknameControl],
    ['민\ue000수', MSG.nicknameControl],
    ['ﾊﾝﾄﾞﾙ', MSG.nicknameControl],
    // Issue 36: tag characters (hidden text), and a name that speaks as the system in chat.
    ['민수\u{E0041}\u{E0042}', MSG.nicknameControl],
    ['[시스템]', MSG.nicknameSystem],
    ['［운영자］', MSG.nicknameSystem],
    ['민'.repeat(65), MSG.nicknameLength],
  ])('rejects nickname %j with a Korean message', async (nickname, message) => {
    const f = await failure(h.anon.auth.guest.mutate({ nickname }));
    expect(f.code).toBe('BAD_REQUEST');
    expect(f.message).toBe(message);
  });

  it('accepts exactly 2 and exactly 12 characters, counting Korean syllables and emoji as one each', async () => {
    expect((await h.anon.auth.guest.mutate({ nickname: '민수' })).nickname).toBe('민수');
    expect((await h.anon.auth.guest.mutate({ nickname: '가나다라마바사아자차카타' })).nickname).toHaveLength(12);
    expect((await h.anon.auth.guest.mutate({ nickname: '🃏🃏' })).nickname).toBe('🃏🃏');
  });

  it('stores names NFC-normalised, full-width ASCII and odd spaces folded (docs/security.md)', async () => {
    const cases: [string, string][] = [
      ['\u1100\u1161\u11a8\u1102\u1161', '각나'],
      ['ＡＤＭＩＮ', 'ADMIN'],
      ['민\u3000\u3000수', '민 수'],
      ['\u00a0민수\u2003', '민수'],
      ['ㅋㅋ', 'ㅋㅋ'],
    ];
    for (const [nickname, stored] of cases) {
      const me = await h.anon.auth.guest.mutate({ nickname });
      expect(me.nickname).toBe(stored);
      expect((await verifyPlayerToken(JWT_SECRET, me.token)).name).toBe(stored);
    }
  });

  it('a missing nickname is refused in Korean too', async () => {
    const f = await failure(h.anon.auth.guest.mutate({} as never));
    expect(f.code).toBe('BAD_REQUEST');
    expect(f.message).toBe(MSG.nicknameRequired);
  });

  it('a returning guest presenting their old token keeps the same id (and may change nickname)', async () => {
    const first = await h.anon.auth.guest.mutate({ nickname: '지영' });
    const again = await h.anon.auth.guest.mutate({ nickname: '지영2', resumeToken: first.token, userId: first.userId });
    expect(again.userId).toBe(first.userId);
    expect(again.nickname).toBe('지영2');
    const viaHeader = await clientFor(h.url, () => again.token).auth.guest.mutate({ nickname: '지영3' });
    expect(viaHeader.userId).toBe(first.userId);
    expect(await clientFor(h.url, () => viaHeader.token).auth.me.query()).toEqual({
      userId: first.userId,
      nickname: '지영3',
    });
  });

  it('an unknown, forged or expired resume token gives a fresh id', async () => {
    const forged = await signPlayerToken('another-secret', { sub: 'u_victim', name: 'x' });
    const a = await h.anon.auth.guest.mutate({ nickname: '철수', resumeToken: forged });
    expect(a.userId).not.toBe('u_victim');
    const expired = await signPlayerToken(JWT_SECRET, { sub: 'u_expired', name: 'x' }, -10);
    const b = await h.anon.auth.guest.mutate({ nickname: '철수', resumeToken: expired });
    expect(b.userId).not.toBe('u_expired');
  });

  it('claiming a userId without a matching token is forbidden', async () => {
    const other = await h.anon.auth.guest.mutate({ nickname: '영희' });
    const f = await failure(h.anon.auth.guest.mutate({ nickname: '해커', userId: other.userId }));
    expect(f).toMatchObject({ code: 'FORBIDDEN', message: MSG.resumeWithoutToken });
    const mine = await h.anon.auth.guest.mutate({ nickname: '해커' });
    const g = await failure(
      h.anon.auth.guest.mutate({ nickname: '해커', userId: other.userId, resumeToken: mine.token }),
    );
    expect(g).toMatchObject({ code: 'FORBIDDEN', message: MSG.resumeMismatch });
  });
});

describe('auth.me', () => {
  it('returns the same id on every reconnect with the stored token', async () => {
    const me = await h.anon.auth.guest.mutate({ nickname: '동현' });
    for (let i = 0; i < 3; i++) {
      const api = clientFor(h.url, () => me.token);
      expect(await api.auth.me.query()).toEqual({ userId: me.userId, nickname: '동현' });
    }
  });

  it('without a token, or with a bad one, asks to sign in (UNAUTHORIZED, Korean)', async () => {
    expect(await failure(h.anon.auth.me.query())).toMatchObject({ code: 'UNAUTHORIZED', message: MSG.unauthenticated });
    const bad = clientFor(h.url, () => 'not.a.jwt');
    expect(await failure(bad.auth.me.query())).toMatchObject({ code: 'UNAUTHORIZED', message: MSG.badToken });
    expect(await failure(bad.rooms.list.query())).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a valid token for a user this database never saw still works (embedded restart): the user is recreated', async () => {
    const token = await signPlayerToken(JWT_SECRET, { sub: 'u_fromelsewhere01', name: '수진' });
    const api = clientFor(h.url, () => token);
    expect(await api.auth.me.query()).toEqual({ userId: 'u_fromelsewhere01', nickname: '수진' });
    const room = await api.rooms.create.mutate({ game: 'count', options: {} });
    expect(room.hostId).toBe('u_fromelsewhere01');
  });
});
