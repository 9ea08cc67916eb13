/**
 * The client wire is a contract: every encoder of `@joke/protocol/wire` writes, for many generated
 * inputs (fast-check), text that parses as its declared frame schema and as a ServerMessage, carrying
 * exactly the values it was given; and every error code the gateway or the room worker can send is
 * declared with a Korean message (found by reading their sources, as contract.test.ts does for subjects).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  encodeAck,
  encodeChat,
  encodeError,
  encodeMatched,
  encodePong,
  encodePresence,
  encodeQueued,
  encodeQueueStatus,
  encodeRejected,
  encodeView,
  encodeViewBytes,
  encodeWelcome,
  wireErrorText,
  type WireErrorCode,
} from '../src/client-wire.ts';
import {
  AckFrame,
  CHAT_EMOTES,
  CHAT_ERRORS,
  CHAT_PHRASES,
  ChatMessage,
  ERRORS,
  ErrorFrame,
  MatchedFrame,
  PongFrame,
  PresenceFrame,
  QueuedFrame,
  QueueStatusFrame,
  REFUSAL_CODES,
  REFUSALS,
  RejectedFrame,
  ServerMessage,
  ViewFrame,
  WelcomeFrame,
  type RefusalCode,
} from '../src/index.ts';

const RUNS = { numRuns: 300 };
const HANGUL = /[가-힣]/;

/** Parses `text` as `schema` and as a ServerMessage; returns the parsed value. */
function parsesAs<S extends z.ZodType>(schema: S, text: string | Uint8Array): z.output<S> {
  const raw: unknown = JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
  const own = schema.safeParse(raw);
  expect(own.success, `${own.error?.message} in ${String(text).slice(0, 200)}`).toBe(true);
  expect(ServerMessage.safeParse(raw).success).toBe(true);
  return own.data as z.output<S>;
}

// Strings with quotes, backslashes, controls, lone surrogates, Hangul and astral characters: what a hand-built
// frame would get wrong first.
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constant('"\\\u2028'),
);
const int = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
/** A finite number as JSON gives it back (-0 is written as 0). */
const num = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));
const refusal = fc.constantFrom(...REFUSAL_CODES);
const errorCode = fc.constantFrom(
  ...(Object.keys(ERRORS) as WireErrorCode[]),
  ...(Object.keys(CHAT_ERRORS) as WireErrorCode[]),
);
const presence = fc.array(fc.record({ id: text, connected: fc.boolean(), away: fc.boolean(), bot: fc.boolean() }), {
  maxLength: 10,
});
/** A JSON value as JSON.parse would give it back (no -0, no undefined). */
const jsonValue = fc.jsonValue().map((x) => JSON.parse(JSON.stringify(x)) as unknown);
/** `__proto__` left out of keys: zod's record parse drops that own key (a zod matter, not the encoder's). */
const key = text.filter((k) => k !== '__proto__');
const jsonObject = fc.dictionary(key, jsonValue, { maxKeys: 6 });

describe('every encoder writes its declared frame', () => {
  it('welcome, pong, ack', () => {
    fc.assert(
      fc.property(text, text, num, (userId, name, serverTime) => {
        const m = parsesAs(WelcomeFrame, encodeWelcome(userId, name, serverTime));
        expect([m.userId, m.name, m.serverTime]).toEqual([userId, name, serverTime]);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(num, num, (at, serverTime) => {
        expect(parsesAs(PongFrame, encodePong(at, serverTime))).toEqual({ v: 1, t: 'pong', at, serverTime });
      }),
      RUNS,
    );
    fc.assert(
      fc.property(text, text, int, (roomId, actionId, seq) => {
        const out = encodeAck(roomId, actionId, seq);
        expect(parsesAs(AckFrame, out)).toEqual({ v: 1, t: 'ack', roomId, actionId, seq });
        expect(out).toBe(JSON.stringify({ v: 1, t: 'ack', roomId, actionId, seq }));
      }),
      RUNS,
    );
  });

  it('rejected and error, with declared codes only', () => {
    fc.assert(
      fc.property(text, text, text, fc.option(refusal, { nil: undefined }), (roomId, actionId, reason, code) => {
        const m = parsesAs(RejectedFrame, encodeRejected(roomId, actionId, reason, code));
        expect(m).toEqual({ v: 1, t: 'rejected', roomId, actionId, reason, ...(code && { code }) });
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        errorCode,
        fc.option(text, { nil: undefined }),
        fc.record({ roomId: text, actionId: text, refusal }, { requiredKeys: [] }),
        (code, message, place) => {
          const m = parsesAs(ErrorFrame, encodeError(code, message, place));
          expect(m).toEqual({ v: 1, t: 'error', code, message: message ?? wireErrorText(code), ...place });
        },
      ),
      RUNS,
    );
  });

  it('queued, matched, queueStatus', () => {
    fc.assert(
      fc.property(text, text, int, text, (game, mode, players, roomId) => {
        expect(parsesAs(QueuedFrame, encodeQueued({ game, mode, players }))).toEqual({
          v: 1,
          t: 'queued',
          game,
          mode,
          players,
        });
        expect(parsesAs(MatchedFrame, encodeMatched({ roomId, game, mode }))).toEqual({
          v: 1,
          t: 'matched',
          roomId,
          game,
          mode,
        });
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.record(
          { game: text, mode: text, players: int, waiting: int, botsAt: fc.option(num), full: fc.boolean() },
          { requiredKeys: ['game', 'mode', 'players', 'waiting', 'botsAt'] },
        ),
        (s) => {
          expect(parsesAs(QueueStatusFrame, encodeQueueStatus(s))).toEqual({ v: 1, t: 'queueStatus', ...s });
        },
      ),
      RUNS,
    );
  });

  it('chat', () => {
    const body = fc.oneof(
      fc.record({ kind: fc.constant('phrase' as const), phrase: fc.integer({ min: 0, max: CHAT_PHRASES.length - 1 }) }),
      fc.record({
        kind: fc.constant('emote' as const),
        emote: fc.constantFrom(...(Object.keys(CHAT_EMOTES) as (keyof typeof CHAT_EMOTES)[])),
      }),
      fc.record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 1000 }) }),
    );
    fc.assert(
      fc.property(
        fc.record({
          roomId: text,
          from: text,
          name: text,
          role: fc.constantFrom('player' as const, 'spectator' as const),
          body,
          at: num,
        }),
        (m) => {
          expect(parsesAs(ChatMessage, encodeChat(m))).toEqual({ v: 1, t: 'chat', ...m });
        },
      ),
      RUNS,
    );
  });

  it('presence', () => {
    fc.assert(
      fc.property(text, presence, (roomId, list) => {
        const m = parsesAs(PresenceFrame, encodePresence(JSON.stringify(roomId), JSON.stringify(list)));
        expect(m).toEqual({ v: 1, t: 'presence', roomId, presence: list });
      }),
      RUNS,
    );
  });

  it('view, as text and as bytes with the view in two pieces', () => {
    const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    fc.assert(
      fc.property(
        text,
        int,
        fc.constantFrom('player' as const, 'spectator' as const),
        jsonObject,
        jsonObject,
        fc.array(jsonValue, { maxLength: 5 }),
        optional(presence),
        optional(jsonValue),
        optional(jsonObject),
        (roomId, seq, role, own, shared, events, pres, result, fixed) => {
          // Own and shared members never share a key (the engine's viewParts split one view).
          const sharedOnly = Object.fromEntries(Object.entries(shared).filter(([k]) => !(k in own)));
          const view = { ...own, ...sharedOnly };
          const tail = {
            eventsJson: JSON.stringify(events),
            presenceJson: pres === null ? null : JSON.stringify(pres),
            resultJson: result === null ? null : JSON.stringify(result),
            fixedJson: fixed === null ? null : JSON.stringify(fixed),
          };
          const want = {
            v: 1,
            t: 'view',
            roomId,
            seq,
            role,
            view,
            events,
            ...(pres !== null && { presence: pres }),
            ...(fixed !== null && { fixed }),
            ...(result !== null && { result }),
          };
          const roomIdJson = JSON.stringify(roomId);
          const whole = encodeView(roomIdJson, seq, role, JSON.stringify(view), tail);
          expect(parsesAs(ViewFrame, whole)).toEqual(want);
          // The bots read the header by bytes: it is always first and in this order.
          expect(
            whole.startsWith(`{"v":1,"t":"view","roomId":${roomIdJson},"seq":${seq},"role":"${role}","view":`),
          ).toBe(true);
          const ownJson = JSON.stringify(own);
          const sharedJson = JSON.stringify(sharedOnly);
          if (ownJson.length > 2 && sharedJson.length > 2) {
            const bytes = encodeViewBytes(
              roomIdJson,
              seq,
              role,
              ownJson.slice(0, -1),
              Buffer.from(',' + sharedJson.slice(1)),
              tail,
            );
            expect(parsesAs(ViewFrame, bytes)).toEqual(want);
          }
        },
      ),
      RUNS,
    );
  });
});

describe('every error code sent is declared', () => {
  it('every declared code has a Korean message', () => {
    for (const table of [ERRORS, CHAT_ERRORS, REFUSALS])
      for (const [code, message] of Object.entries(table)) expect(message, code).toMatch(HANGUL);
    expect(REFUSALS.stale).toMatch(HANGUL);
  });

  const services = fileURLToPath(new URL('../..', import.meta.url));
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
    });

  it('every code the gateway or the room worker writes literally is in ERRORS, CHAT_ERRORS or REFUSALS', () => {
    // The ways a code leaves these services: an error frame (protoError, encodeError, refuse of chat), a bus
    // refusal that becomes a `rejected` frame (refuse, `code = '…'`, `code: '…'`).
    const patterns = [
      /protoError\([^,]+,\s*'([A-Za-z]+)'/g,
      // A Session's own method (services/gateway/src/session.ts): session.protoError('code', …).
      /\.protoError\(\s*'([A-Za-z]+)'/g,
      /encodeError\(\s*'([A-Za-z]+)'/g,
      /\brefuse\(\s*(?:[^,()]+,\s*[^,()]+,\s*)?'([A-Za-z]+)'/g,
      /\bcode\s*=\s*'([A-Za-z]+)';/g,
      /\bcode:\s*'([A-Za-z]+)'/g,
      /\bcode\s*=[^;\n]*\?\s*'([A-Za-z]+)'\s*:\s*'[A-Za-z]+'/g,
      /\bcode\s*=[^;\n]*\?\s*'[A-Za-z]+'\s*:\s*'([A-Za-z]+)'/g,
    ];
    const declared = new Set([...Object.keys(ERRORS), ...Object.keys(CHAT_ERRORS), ...REFUSAL_CODES]);
    const found = new Map<string, string>();
    for (const dir of ['gateway/src', 'room-worker/src'])
      for (const file of sources(join(services, dir))) {
        const src = readFileSync(file, 'utf8');
        for (const re of patterns) for (const m of src.matchAll(re)) found.set(m[1], file);
      }
    // The scan must see the codes it is meant to see, or it proves nothing.
    for (const known of [
      'tableLost',
      'stale',
      'illegal',
      'tooManyRooms',
      'queueRejected',
      'chatNotInRoom',
      'capacity',
      'tooManyPending',
    ])
      expect(found.has(known), known).toBe(true);
    for (const [code, file] of found) expect(declared.has(code), `${code} (${file})`).toBe(true);
  });

  it('a refusal passed on as a rejected frame keeps its code', () => {
    for (const code of REFUSAL_CODES as RefusalCode[])
      expect(JSON.parse(encodeRejected('r', 'a', REFUSALS[code], code)).code).toBe(code);
  });
});
