/**
 * Typed lobby client. Types come from the lobby's router (type-only import:
 * nothing of the server is bundled); every call carries the stored token.
 */
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@joke/lobby';
import { currentToken } from './session.ts';

export type { AppRouter };
export type { RoomDetail, RoomSummary, SeatView, GameInfo, HistoryEntry } from '@joke/lobby';

export const lobby = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: new URL('/trpc', location.href).toString(),
      headers() {
        const token = currentToken();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    }),
  ],
});

/** The Korean message the lobby put in the error, or a generic one for network failures. */
export function errorMessage(e: unknown): string {
  if (e instanceof TRPCClientError) {
    if (e.message && !/fetch|network|JSON/i.test(e.message)) return e.message;
    return '서버에 연결할 수 없어요. 잠시 후 다시 시도해 주세요';
  }
  return e instanceof Error ? e.message : String(e);
}

export function isUnauthorized(e: unknown): boolean {
  return e instanceof TRPCClientError && (e.data as { code?: string } | undefined)?.code === 'UNAUTHORIZED';
}
