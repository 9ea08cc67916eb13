/** Tables: create, browse, sit down, add bots, and hand a full table to the matchmaker. */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { newCode, newRoomId, normalizeCode, storedId } from '../ids.ts';
import { isRawUniqueViolation } from '../db/raw.ts';
import { createRoom, joinRoom, roomIdByCode, type JoinOutcome } from '../rooms/sql.ts';
import { BOT_NAMES, MSG } from '../messages.ts';
import { authedProcedure, rateLimitedProcedure, router } from '../trpc.ts';
import { detail, gameOf, parseOptions } from '../rooms/game-def.ts';
import { listRooms } from '../rooms/list.ts';
import { startGame } from '../rooms/start.ts';
import { fillLeftSeat, voteAgain } from '../rooms/again.ts';
import {
  ensureUserOnce,
  freeSeat,
  lockRoom,
  markUserSeen,
  requireHost,
  requireWaiting,
  resolveRoom,
  settleAfterLeave,
  userFresh,
} from '../rooms/store.ts';
import { seatName, toDetail, type RoomRow } from '../rooms/view.ts';

const roomId = storedId(64, MSG.roomNotFound);
const RoomRefInput = z
  .object({ roomId: roomId.optional(), code: z.string().max(32, MSG.badCode).optional() })
  .refine((r) => (r.roomId === undefined) !== (r.code === undefined), { message: MSG.roomRef });

/**
 * A join that lost a race looks again; each lost attempt means another join or a start went through,
 * so a handful covers every seat of a table changing hands at once.
 */
const JOIN_ATTEMPTS = 20;

export const roomsRouter = router({
  create: rateLimitedProcedure('create')
    .input(
      z.object({
        game: z.string({ error: MSG.unknownGame('?') }).max(32),
        options: z.record(z.string(), z.unknown()).default({}),
        isPrivate: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { raw, games, log, metrics, limits } = ctx.deps;
      const def = gameOf(games, input.game);
      const options = parseOptions(def, input.options);
      const { max } = def.playerRange(options);
      for (let attempt = 0; ; attempt++) {
        const id = newRoomId();
        let created: Awaited<ReturnType<typeof createRoom>>;
        try {
          // One call: the host's user row (its lock serialises one host's creates), the cap, room and seat 0.
          created = await createRoom(
            raw,
            ctx.user,
            {
              id,
              code: newCode(),
              game: def.id,
              mode: options.mode,
              options,
              isPrivate: input.isPrivate,
              maxSeats: max,
            },
            limits.maxRoomsPerUser,
          );
        } catch (e) {
          // An invite code already in use: draw another.
          if (isRawUniqueViolation(e) && attempt < 5) continue;
          throw e;
        }
        if (!created.row) throw new TRPCError({ code: 'FORBIDDEN', message: MSG.tooManyRooms(limits.maxRoomsPerUser) });
        metrics.roomsCreated.inc({ game: def.id });
        log.info({ roomId: id, game: def.id, mode: options.mode, host: ctx.user.id }, 'room created');
        return toDetail(games, created.row, ctx.user.id);
      }
    }),

  /** Public rooms, newest first. */
  list: authedProcedure
    .input(
      z
        .object({
          game: z.string().max(32).optional(),
          hasOpenSeats: z.boolean().optional(),
          inProgress: z.boolean().optional(),
          limit: z.number().int().min(1).max(100).default(50),
        })
        .default({ limit: 50 }),
    )
    .query(({ ctx, input }) => listRooms(ctx.deps, input)),

  get: authedProcedure
    .input(z.object({ roomId }))
    .query(({ ctx, input }) => detail(ctx.deps, input.roomId, ctx.user.id)),

  /** Takes the lowest free seat (by id for public rooms, by invite code for any room). */
  join: rateLimitedProcedure('join')
    .input(RoomRefInput)
    .mutation(async ({ ctx, input }) => {
      const { raw, log, seenUsers } = ctx.deps;
      // By code, any room (private ones too); by id, a private room only for who is already in it.
      let id = input.roomId;
      if (input.code !== undefined) {
        const code = normalizeCode(input.code);
        if (!code) throw new TRPCError({ code: 'BAD_REQUEST', message: MSG.badCode });
        id = (await roomIdByCode(raw, code)) ?? undefined;
        if (!id) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
      }
      const touchUser = !userFresh(seenUsers, ctx.user.id, ctx.deps.clock.now());
      // Each attempt is one statement (rooms/sql.ts joinRoom); a lost race for a seat is a unique
      // violation, or a room that changed between the statement's snapshot and its lock: look again.
      for (let attempt = 0; attempt < JOIN_ATTEMPTS; attempt++) {
        let out: JoinOutcome;
        try {
          out = await joinRoom(raw, id!, ctx.user, { touchUser, allowPrivate: input.code !== undefined });
        } catch (e) {
          if (isRawUniqueViolation(e)) continue;
          throw e;
        }
        if (touchUser) markUserSeen(seenUsers, ctx.user.id, ctx.deps.clock.now());
        const room = out.room;
        if (!room) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
        if (room.isPrivate && input.code === undefined && !out.seated && !out.watching)
          throw new TRPCError({ code: 'FORBIDDEN', message: MSG.privateNeedsCode });
        if (out.seated) return toDetail(ctx.deps.games, room, ctx.user.id);
        requireWaiting(room, MSG.joinWhilePlaying);
        if (!out.locked) continue;
        if (!out.taken) throw new TRPCError({ code: 'CONFLICT', message: MSG.roomFull });
        const { seat, joinedAt, nickname } = out.taken;
        log.info({ roomId: id, userId: ctx.user.id, seat }, 'joined');
        // The room as read plus the new seat is the room after the join: no second read.
        const row: RoomRow = {
          ...room,
          seats: [
            ...room.seats,
            { roomId: room.id, seat, userId: ctx.user.id, botName: null, joinedAt, user: { nickname } },
          ].sort((a, b) => a.seat - b.seat),
          spectators: room.spectators.filter((s) => s.userId !== ctx.user.id),
        };
        return toDetail(ctx.deps.games, row, ctx.user.id);
      }
      throw new TRPCError({ code: 'CONFLICT', message: MSG.roomFull });
    }),

  /** Watches a room; a seated player gives up their seat (before the game starts). */
  spectate: rateLimitedProcedure('join')
    .input(RoomRefInput)
    .mutation(async ({ ctx, input }) => {
      const { db } = ctx.deps;
      const id = await resolveRoom(db, input, ctx.user.id);
      await ensureUserOnce(db, ctx.deps.seenUsers, ctx.user, ctx.deps.clock.now());
      await db.$transaction(async (tx) => {
        const room = await lockRoom(tx, id);
        if (room.seats.some((s) => s.userId === ctx.user.id)) {
          requireWaiting(room, MSG.spectateWhileSeated);
          await tx.seat.deleteMany({ where: { roomId: id, userId: ctx.user.id } });
        }
        await tx.spectator.upsert({
          where: { roomId_userId: { roomId: id, userId: ctx.user.id } },
          create: { roomId: id, userId: ctx.user.id },
          update: {},
        });
      });
      return detail(ctx.deps, id, ctx.user.id);
    }),

  /** Leaves seat or gallery; the host passes to the next person, an empty room closes. */
  leave: authedProcedure.input(z.object({ roomId })).mutation(async ({ ctx, input }) => {
    const { db, log } = ctx.deps;
    return db.$transaction(async (tx) => {
      const room = await lockRoom(tx, input.roomId);
      const seated = room.seats.some((s) => s.userId === ctx.user.id);
      const watching = room.spectators.some((s) => s.userId === ctx.user.id);
      if (!seated && !watching) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.notMember });
      await tx.seat.deleteMany({ where: { roomId: room.id, userId: ctx.user.id } });
      await tx.spectator.deleteMany({ where: { roomId: room.id, userId: ctx.user.id } });
      // After a game, the host may have let bots take the seats of people who do not stay (한 판 더).
      if (seated) await fillLeftSeat(tx, room, ctx.user.id);
      const after = await settleAfterLeave(tx, room.id);
      log.info({ roomId: room.id, userId: ctx.user.id, ...after }, 'left');
      return { roomId: room.id, closed: after.closed, hostId: after.hostId };
    });
  }),

  addBot: authedProcedure.input(z.object({ roomId })).mutation(async ({ ctx, input }) => {
    await ctx.deps.db.$transaction(async (tx) => {
      const room = await lockRoom(tx, input.roomId);
      requireHost(room, ctx.user.id);
      requireWaiting(room);
      const seat = freeSeat(room);
      const used = new Set(room.seats.map(seatName));
      const name = BOT_NAMES.find((n) => !used.has(n)) ?? `봇 ${seat + 1}`;
      await tx.seat.create({ data: { roomId: room.id, seat, botName: name } });
    });
    return detail(ctx.deps, input.roomId, ctx.user.id);
  }),

  removeBot: authedProcedure
    .input(z.object({ roomId, seat: z.number().int().min(0).max(15) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.db.$transaction(async (tx) => {
        const room = await lockRoom(tx, input.roomId);
        requireHost(room, ctx.user.id);
        requireWaiting(room);
        const seat = room.seats.find((s) => s.seat === input.seat);
        if (!seat || seat.userId !== null) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.noBotThere });
        await tx.seat.delete({ where: { roomId_seat: { roomId: room.id, seat: input.seat } } });
      });
      return detail(ctx.deps, input.roomId, ctx.user.id);
    }),

  /**
   * 한 판 더: the caller agrees to play the next game with the same seats and options (rooms/again.ts);
   * the vote that completes the table starts it. `bots` (host only): seats people leave go to bots.
   */
  again: rateLimitedProcedure('start')
    .input(z.object({ roomId, bots: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      await voteAgain(ctx.deps, input.roomId, ctx.user.id, input.bots);
      return detail(ctx.deps, input.roomId, ctx.user.id);
    }),

  /**
   * Host only. Checks the seat count against playerRange(options), asks the
   * matchmaker to place the game, and returns the id to open at the gateway. Rate limited per
   * address and per user (LOBBY_RATE_START_*): each start opens a live table on a worker.
   */
  start: rateLimitedProcedure('start')
    .input(z.object({ roomId }))
    .mutation(({ ctx, input }) => startGame(ctx.deps, input.roomId, ctx.user.id)),
});
