/**
 * Ids and cursors a client sends that the lobby looks up in PostgreSQL: a control character in one (a NUL
 * above all: PostgreSQL refuses it in text) is refused at the input with 400 and the Korean reason of a
 * missing thing, never passed to a query that fails with a 500. The same call with a well-formed id that
 * names nothing still answers "not found", so the refusal is the input's, not the lookup's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { failure, startHarness, uniqueSchema, type Client, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
let api: Client;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url });
  api = (await h.guest('아이디')).api;
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

const BAD = ['\u0000', 'g_abc\u0000', 'r_\u001f', 'x\u007f', 'a\nb'];

describe('ids with control characters', () => {
  const calls: [string, (id: string) => Promise<unknown>, string, string][] = [
    ['history.mine cursor', (id) => api.history.mine.query({ cursor: id }), MSG.badCursor, ''],
    ['history.get gameId', (id) => api.history.get.query({ gameId: id }), MSG.gameNotFound, 'NOT_FOUND'],
    ['history.replay gameId', (id) => api.history.replay.query({ gameId: id }), MSG.gameNotFound, 'NOT_FOUND'],
    ['rooms.get roomId', (id) => api.rooms.get.query({ roomId: id }), MSG.roomNotFound, 'NOT_FOUND'],
    ['rooms.join roomId', (id) => api.rooms.join.mutate({ roomId: id }), MSG.roomNotFound, 'NOT_FOUND'],
  ];
  for (const [name, call, message, missing] of calls)
    it(`${name}: refused with 400 and "${message}"; a well-formed unknown id is ${missing || 'an empty page'}`, async () => {
      for (const id of BAD) {
        const f = await failure(call(id));
        expect(f.code, JSON.stringify(id)).toBe('BAD_REQUEST');
        expect(f.message).toContain(message);
      }
      if (missing) expect((await failure(call('zz_unknown'))).code).toBe(missing);
      else await expect(call('zz_unknown')).resolves.toMatchObject({ nextCursor: null });
    });
});
