/**
 * How many sockets this gateway holds at most (issue 37): GATEWAY_MAX_SOCKETS, or by default the process's
 * open-file limit less a reserve (`fdReserve`). Past it a new socket is refused at its upgrade (503, body `capacity`).
 *
 * Why: a gateway that accepts until the kernel refuses (EMFILE) fails the crowd it already holds. In the
 * 2026-12-08 overload runs one gateway with a 20,000-file limit was offered 24,000 bots: sockets stopped at
 * 19,972, connections were reset, and the tables already playing stopped getting views (23 actions/s, against
 * 1,265 a level before). Refusing at the upgrade costs one short-lived socket and leaves descriptors for
 * NATS, Redis and the ops server.
 *
 * State: none (read once at start). Failure modes: /proc unreadable (not Linux) or "unlimited": no bound.
 */
import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for everything but players' sockets (bus and store connections, the ops server, files):
 * 1,024, or a quarter of a limit under 4,096 — a process left with a hard limit of 1,024 (node raises the
 * soft limit to the hard one) still holds 768 players instead of none.
 */
export function fdReserve(fileLimit: number): number {
  return Math.min(1_024, Math.floor(fileLimit / 4));
}

/** The soft "Max open files" of this process from /proc/self/limits; null when unknown or unlimited. */
export function openFileLimit(limits = readLimits()): number | null {
  const line = limits?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  const n = soft === undefined ? NaN : Number(soft);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function readLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/** The socket bound: `configured` when set (> 0), else the open-file limit less `fdReserve` (at least 1). */
export function maxSocketsOf(configured: number, fileLimit: number | null = openFileLimit()): number {
  if (configured > 0) return configured;
  return fileLimit === null ? Number.POSITIVE_INFINITY : Math.max(1, fileLimit - fdReserve(fileLimit));
}
