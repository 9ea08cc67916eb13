/**
 * RoomCommand.framesInReply: the frames an accepted action makes for the requesting gateway's viewers
 * travel as the command's reply (one bus message instead of a reply and a delivery); other gateways
 * get their deliveries as before, and every other reply stays the plain JSON an older gateway reads.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { contract, listen, type bus as wire } from '@joke/protocol';
import { FakeGateway, parseFrame, twoSeatRoom, until } from './harness.ts';

/** The two-seat room with a and b joined through gateway g1 and a spectator s through g2. */
async function table({ onTestFinished }: TestContext) {
  const { bus } = await twoSeatRoom(onTestFinished);
  const g1 = new FakeGateway(bus, 'g1');
  const g2 = new FakeGateway(bus, 'g2');
  const first = (await g1.join('r', 'a')).view.view.current as string;
  await g1.join('r', 'b');
  await g2.join('r', 's', true);
  return { bus, g1, g2, first, second: first === 'a' ? 'b' : 'a' };
}

const frameSeqs = (d: wire.Delivery) => d.frames.map((f) => [f.viewer, parseFrame(f).seq]);

describe('frames in the reply', () => {
  it("sends an accepted action's frames for the actor's gateway as its reply, and the rest as deliveries", async (ctx) => {
    const { g1, g2, first } = await table(ctx);
    const before = g1.deliveries.length;
    const reply = await g1.act('r', first, 'x1', { type: 'add', n: 1 }, true);
    expect(reply.ok).toBe(true);
    const d = reply.delivery as wire.Delivery;
    expect(d).toMatchObject({ roomId: 'r', seq: reply.seq });
    // Both players on g1 get their own view of that seq, each with their own secret only.
    expect(frameSeqs(d).sort()).toEqual([
      ['a', reply.seq],
      ['b', reply.seq],
    ]);
    for (const f of d.frames) expect(parseFrame(f).view.viewer).toBe(f.viewer);
    // The spectator's gateway still gets a delivery of that seq; g1 gets none (barrier: the room's
    // queue has run past the action, and the bus delivers in order).
    await g2.barrier('r', 's', true);
    expect(g2.deliveries.some((x) => x.seq === reply.seq)).toBe(true);
    expect(g1.deliveries.slice(before).some((x) => x.seq === reply.seq)).toBe(false);
  });

  it('answers refusals and repeats plainly, and a gateway that did not ask gets a plain reply and a delivery', async (ctx) => {
    const { g1, first, second } = await table(ctx);
    const refused = await g1.act('r', second, 'x0', { type: 'add', n: 1 }, true);
    expect(refused).toEqual({ ok: false, code: 'illegal', reason: '지금은 내 차례가 아니에요' });
    const ok = await g1.act('r', first, 'x1', { type: 'add', n: 1 }, true);
    expect(ok.delivery).toBeDefined();
    // The retry of an acknowledged action gets the remembered reply, without frames.
    expect(await g1.act('r', first, 'x1', { type: 'add', n: 1 }, true)).toEqual({ ok: true, seq: ok.seq });
    const plain = await g1.act('r', second, 'x2', { type: 'add', n: 1 });
    expect(plain).toEqual({ ok: true, seq: ok.seq! + 1 });
    await until(() => g1.deliveries.some((x) => x.seq === plain.seq!));
  });

  it('sends the frames as a delivery when the actor has no viewer on its gateway', async (ctx) => {
    const { bus, first } = await table(ctx);
    // A gateway with nobody of this room on it: nothing to carry, the reply is plain.
    const g3 = new FakeGateway(bus, 'g3');
    const seen: number[] = [];
    listen(bus, contract.gatewayDeliver.at('g1'), (d) => seen.push(d.seq));
    const reply = await g3.act('r', first, 'x1', { type: 'add', n: 2 }, true);
    expect(reply).toEqual({ ok: true, seq: reply.seq });
    await until(() => seen.includes(reply.seq!));
  });
});
