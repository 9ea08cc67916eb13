/** Guest sign-in: a nickname buys a signed token; the token keeps the same user id across visits. */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { signPlayerToken, verifyPlayerToken, type PlayerClaims } from '@joke/protocol/auth';
import { newUserId } from '../ids.ts';
import { codePoints, impersonatesSystem, NICKNAME_MAX_UNITS, normalizeNickname } from '../nickname.ts';
import { MSG } from '../messages.ts';
import { authedProcedure, publicProcedure, router } from '../trpc.ts';
import { NOW, type Stmt } from '../db/raw.ts';

export const nickname = z
  .string({ error: MSG.nicknameRequired })
  // Bounded before any per-character work: a megabyte "nickname" is refused on its length alone.
  .max(NICKNAME_MAX_UNITS, MSG.nicknameLength)
  .transform(normalizeNickname)
  .refine((s) => s !== null, { message: MSG.nicknameControl, abort: true })
  .transform((s) => s!)
  .refine((s) => !impersonatesSystem(s), { message: MSG.nicknameSystem, abort: true })
  .refine((s) => codePoints(s) >= 2 && codePoints(s) <= 12, { message: MSG.nicknameLength });

export const GuestInput = z.object({
  nickname,
  /** Only honoured together with a valid token for the same id (resumeToken or the Authorization header). */
  userId: z.string().max(64).optional(),
  resumeToken: z.string().max(4096).optional(),
});

/** One statement (Prisma's upsert was a read and a write, each built and mapped by Prisma). */
const UPSERT_GUEST: Stmt = {
  name: 'lobby_guest_upsert',
  text: `INSERT INTO "users" ("id", "nickname") VALUES ($1, $2)
    ON CONFLICT ("id") DO UPDATE SET "nickname" = EXCLUDED."nickname", "last_seen_at" = ${NOW}`,
};

export const authRouter = router({
  /**
   * Signs in as a guest. Presenting a previously issued valid token (as
   * `resumeToken` or in the Authorization header) keeps its user id, with
   * the new nickname; otherwise a fresh id is issued.
   */
  guest: publicProcedure.input(GuestInput).mutation(async ({ ctx, input }) => {
    const { raw, jwtSecret, tokenTtlSeconds, log, rate } = ctx.deps;
    await rate.hit('guest', 'ip', ctx.ip);
    let resumed: PlayerClaims | null = null;
    if (input.resumeToken) {
      try {
        resumed = await verifyPlayerToken(jwtSecret, input.resumeToken);
      } catch {
        // An expired or foreign token just means a new guest identity.
        resumed = null;
      }
    }
    resumed ??= ctx.claims;
    if (input.userId !== undefined) {
      if (!resumed) throw new TRPCError({ code: 'FORBIDDEN', message: MSG.resumeWithoutToken });
      if (resumed.sub !== input.userId) throw new TRPCError({ code: 'FORBIDDEN', message: MSG.resumeMismatch });
    }
    if (resumed) await rate.hit('guest', 'user', resumed.sub);
    const userId = resumed?.sub ?? newUserId();
    await raw.rows(UPSERT_GUEST, [userId, input.nickname]);
    const token = await signPlayerToken(jwtSecret, { sub: userId, name: input.nickname }, tokenTtlSeconds);
    log.info({ userId, resumed: resumed !== null }, 'guest signed in');
    return { userId, nickname: input.nickname, token };
  }),

  /** Who the Authorization token belongs to (UNAUTHORIZED if none or invalid). */
  me: authedProcedure.query(async ({ ctx }) => {
    const row = await ctx.deps.db.user.findUnique({ where: { id: ctx.user.id }, select: { nickname: true } });
    return { userId: ctx.user.id, nickname: row?.nickname ?? ctx.user.nickname };
  }),
});
