/**
 * What the file store adds to the in-memory rules: what a resolved call
 * changed is on disk, a new store on the same folder (the next run of the
 * embedded platform) finds every room with its lease lapsed, and a dropped
 * room leaves no file behind.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSnapshotStore } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'joke-file-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TTL = 60_000;

describe('FileSnapshotStore', () => {
  it('a reopened folder has every room, its snapshot and steps, with no owner', async () => {
    const a = new FileSnapshotStore(dir);
    expect((await a.createRoom('t1', 'w1', { seq: 1, data: 'd1', steps: ['s1'] }, TTL)).ok).toBe(true);
    expect(await a.write('t1', 1, 'w1', { seq: 2, data: 'd2', steps: ['s2'] }, TTL)).toBe('ok');
    expect((await a.createRoom('t2', 'w1', { seq: 1, data: 'x', steps: [] }, TTL)).ok).toBe(true);
    // Not closed: a SIGKILL gives no chance to flush, so what resolved must already be on disk.
    const b = new FileSnapshotStore(dir);
    expect(b.size).toBe(2);
    expect(await b.load('t1')).toEqual({ roomId: 't1', epoch: 1, seq: 2, data: 'd2', steps: ['s1', 's2'] });
    expect(await b.lease('t1')).toBeNull();
    expect((await b.orphans(10)).sort()).toEqual(['t1', 't2']);
    const taken = await b.acquire('t1', 'w2', TTL);
    expect(taken?.epoch).toBe(2);
    // The old process's epoch is fenced out in the new run.
    expect(await b.write('t1', 1, 'w1', { seq: 3, data: 'd3', steps: [] }, TTL)).toBe('stale');
    expect(await b.drop('t2', 1)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['t1.json']);
    await b.close();
    await a.close();
  });

  it('a steps-only write is on disk with the snapshot it builds on', async () => {
    const a = new FileSnapshotStore(join(dir, 'steps'));
    await a.createRoom('s1', 'w1', { seq: 1, data: 'd1', steps: ['x1'] }, TTL);
    expect(await a.write('s1', 1, 'w1', { seq: 2, data: null, after: 1, steps: ['x2'] }, TTL)).toBe('ok');
    const b = new FileSnapshotStore(join(dir, 'steps'));
    expect(await b.load('s1')).toEqual({ roomId: 's1', epoch: 1, seq: 2, data: 'd1', steps: ['x1', 'x2'] });
    await Promise.all([a.close(), b.close()]);
  });

  it('writes of one turn share one file write per room', async () => {
    const s = new FileSnapshotStore(join(dir, 'batch'));
    await s.createRoom('b1', 'w1', { seq: 1, data: 'd', steps: [] }, TTL);
    const before = s.fileWrites;
    await Promise.all([
      s.write('b1', 1, 'w1', { seq: 2, data: 'd2', steps: ['a'] }, TTL),
      s.write('b1', 1, 'w1', { seq: 3, data: 'd3', steps: ['b'] }, TTL),
      s.renew('w1', [{ roomId: 'b1', epoch: 1 }], TTL),
    ]);
    expect(s.fileWrites - before).toBe(1);
    expect(await new FileSnapshotStore(join(dir, 'batch')).load('b1')).toMatchObject({ seq: 3, steps: ['a', 'b'] });
  });
});
