/** Issue 37: the gateway's socket bound, by default its open-file limit less a reserve. */
import { describe, expect, it } from 'vitest';
import { fdReserve, maxSocketsOf, openFileLimit } from '../src/socket-capacity.ts';

const limits = (openFiles: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units',
    'Max processes             95567                95567                processes',
    `Max open files            ${openFiles}                files`,
  ].join('\n');

describe('socket capacity', () => {
  it('reads the soft open-file limit; unlimited or unreadable is none', () => {
    expect(openFileLimit(limits('20000                20000'))).toBe(20_000);
    expect(openFileLimit(limits('1024                 1048576'))).toBe(1_024);
    expect(openFileLimit(limits('unlimited            unlimited'))).toBeNull();
    expect(openFileLimit(null)).toBeNull();
    expect(openFileLimit('')).toBeNull();
  });

  it('is GATEWAY_MAX_SOCKETS when set, else the limit less the reserve', () => {
    expect(maxSocketsOf(500, 20_000)).toBe(500);
    expect(maxSocketsOf(0, 20_000)).toBe(20_000 - 1_024);
    // A small limit keeps a quarter: a hard limit of 1,024 still holds 768 players.
    expect(maxSocketsOf(0, 1_024)).toBe(768);
    expect(maxSocketsOf(0, 2)).toBe(2);
    expect(maxSocketsOf(0, 1)).toBe(1);
    expect(maxSocketsOf(0, null)).toBe(Number.POSITIVE_INFINITY);
  });

  it('on this machine, leaves the reserve under the real limit', () => {
    const real = openFileLimit();
    if (real !== null) expect(maxSocketsOf(0)).toBe(Math.max(1, real - fdReserve(real)));
  });
});
