import { describe, expect, it } from 'vitest';
import { ClientMessage, ServerMessage, LIMITS, subjects, bus, PROTOCOL_VERSION } from '../src/index.ts';
import { signPlayerToken, verifyPlayerToken } from '../src/auth.ts';

describe('client messages', () => {
  it('accepts every message type in its documented shape', () => {
    const ok = [
      { v: 1, t: 'hello', token: 'x.y.z' },
      { v: 1, t: 'join', roomId: 'g_abc-1' },
      { v: 1, t: 'join', roomId: 'g_abc', spectate: true },
      { v: 1, t: 'leave', roomId: 'g_abc' },
      { v: 1, t: 'action', roomId: 'g_abc', actionId: 'a1', action: { type: 'draw' } },
      { v: 1, t: 'queue', game: 'one-card', mode: 'classic', players: 4 },
      { v: 1, t: 'unqueue' },
      { v: 1, t: 'ping', at: 1 },
    ];
    for (const m of ok) expect(ClientMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
  });

  it('rejects wrong versions, unknown types, bad room ids and oversized fields', () => {
    const bad = [
      { v: 2, t: 'ping', at: 1 },
      { v: PROTOCOL_VERSION, t: 'teleport' },
      { v: 1, t: 'join', roomId: '../etc' },
      { v: 1, t: 'join', roomId: 'a'.repeat(65) },
      { v: 1, t: 'action', roomId: 'r', actionId: '', action: {} },
      { v: 1, t: 'action', roomId: 'r', actionId: 'x'.repeat(65), action: {} },
      { v: 1, t: 'queue', game: 'one-card', mode: 'classic', players: 11 },
      { v: 1, t: 'hello', token: '' },
      null,
      'hello',
    ];
    for (const m of bad) expect(ClientMessage.safeParse(m).success, JSON.stringify(m)).toBe(false);
  });

  it('keeps the frame limit small enough that no legitimate action comes near it', () => {
    const biggest = JSON.stringify({
      v: 1,
      t: 'action',
      roomId: 'r'.repeat(64),
      actionId: 'a'.repeat(64),
      action: {
        type: 'play',
        cardIds: Array.from({ length: 8 }, (_, i) => `c${100 + i}`),
        chooseSuit: 'S',
        declareOneCard: true,
      },
    });
    expect(biggest.length).toBeLessThan(LIMITS.maxClientFrameBytes / 4);
  });
});

describe('server messages', () => {
  it('parses a view frame with or without its presence list (left out while unchanged), not with another shape', () => {
    const frame = { v: 1, t: 'view', roomId: 'r', seq: 3, role: 'player', view: {}, events: [], presence: [] };
    expect(ServerMessage.safeParse(frame).success).toBe(true);
    const { presence: _p, ...noPresence } = frame;
    expect(ServerMessage.safeParse(noPresence).success).toBe(true);
    expect(ServerMessage.safeParse({ ...frame, presence: [{ id: 'a' }] }).success).toBe(false);
    expect(ServerMessage.safeParse({ ...frame, presence: {} }).success).toBe(false);
  });
  it("keeps a view frame's optional fixed members (an object) and refuses any other shape", () => {
    const frame = { v: 1, t: 'view', roomId: 'r', seq: 3, role: 'player', view: { seq: 3 }, events: [], presence: [] };
    const withFixed = { ...frame, fixed: { game: 'one-card', decks: 1 } };
    const parsed = ServerMessage.safeParse(withFixed);
    expect(parsed.success && parsed.data.t === 'view' && parsed.data.fixed).toEqual({ game: 'one-card', decks: 1 });
    expect(ServerMessage.safeParse({ ...frame, fixed: [1] }).success).toBe(false);
    expect(ServerMessage.safeParse({ ...frame, fixed: 'x' }).success).toBe(false);
  });
});

describe('subject map', () => {
  it('addresses rooms by id and deliveries by gateway, never sharing a subject between rooms', () => {
    expect(subjects.roomCommand('a')).not.toBe(subjects.roomCommand('b'));
    expect(subjects.gatewayDeliver('gw1')).not.toBe(subjects.gatewayDeliver('gw2'));
    expect(new Set([subjects.roomCommand('a'), subjects.roomJoin('a'), subjects.roomPresence('a')]).size).toBe(3);
  });
  it('room specs refuse more than ten seats', () => {
    const players = Array.from({ length: 11 }, (_, i) => ({ id: `p${i}`, name: `p${i}`, bot: false }));
    expect(bus.RoomSpec.safeParse({ roomId: 'r', game: 'one-card', options: {}, players }).success).toBe(false);
  });
});

describe('player tokens', () => {
  const secret = 'test-secret-which-is-long-enough-0123456789';

  it('round-trips the user id and nickname', async () => {
    const token = await signPlayerToken(secret, { sub: 'u1', name: '민수' });
    expect(await verifyPlayerToken(secret, token)).toEqual({ sub: 'u1', name: '민수' });
  });

  it('rejects a token signed with another secret, a tampered payload and an expired token', async () => {
    const token = await signPlayerToken(secret, { sub: 'u1', name: '민수' });
    await expect(verifyPlayerToken(`${secret}x`, token)).rejects.toThrow();
    const [h, p, s] = token.split('.');
    const forged = JSON.parse(Buffer.from(p, 'base64url').toString());
    forged.sub = 'u2';
    const tampered = [h, Buffer.from(JSON.stringify(forged)).toString('base64url'), s].join('.');
    await expect(verifyPlayerToken(secret, tampered)).rejects.toThrow();
    const expired = await signPlayerToken(secret, { sub: 'u1', name: '민수' }, -10);
    await expect(verifyPlayerToken(secret, expired)).rejects.toThrow();
  });
});
