/**
 * The embedded platform's snapshot store on disk: the in-memory store's rules
 * (epochs, fencing, leases), with every room written to its own JSON file in
 * `dir` before the call that changed it resolves, so a snapshot the worker
 * acknowledged survives a restart of the process. Changes made in the same
 * event-loop turn are written together (one file per room, written to a
 * temporary name and renamed, so a crash leaves the old file or the new one,
 * never half of one).
 *
 * Only one process uses a data folder (the single-process platform): when it
 * starts, nobody can still be running the rooms it finds, so every lease is
 * read as lapsed and the matchmaker's orphan sweep places the tables again.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemorySnapshotStore, type RoomRec } from './memory.ts';
import type { CreateResult, FullWrite, SnapshotWrite, StoredRoom, WriteResult } from './types.ts';

const SUFFIX = '.json';
const fileOf = (roomId: string): string => `${encodeURIComponent(roomId)}${SUFFIX}`;

export class FileSnapshotStore extends MemorySnapshotStore {
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;
  private writes = 0;

  /** Reads every room file in `dir` (created if missing). */
  constructor(
    private readonly dir: string,
    now: () => number = Date.now,
  ) {
    super(now);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(SUFFIX)) continue;
      const rec = JSON.parse(readFileSync(join(dir, name), 'utf8')) as RoomRec;
      // No process of the previous run is alive: its leases end with it.
      this.rooms.set(decodeURIComponent(name.slice(0, -SUFFIX.length)), { ...rec, owner: null, leaseUntil: 0 });
    }
  }

  /** Rooms read from disk at start-up plus those created since (tests, logs). */
  get size(): number {
    return this.rooms.size;
  }

  /** Room files written so far (tests: one write per turn, not per call). */
  get fileWrites(): number {
    return this.writes;
  }

  override async createRoom(roomId: string, owner: string, first: FullWrite, ttlMs: number): Promise<CreateResult> {
    const r = await super.createRoom(roomId, owner, first, ttlMs);
    if (r.ok) await this.persist(roomId);
    return r;
  }

  override async acquire(
    roomId: string,
    owner: string,
    ttlMs: number,
  ): Promise<{ epoch: number; room: StoredRoom } | null> {
    const r = await super.acquire(roomId, owner, ttlMs);
    // The new epoch fences the previous owner out after a restart too.
    if (r) await this.persist(roomId);
    return r;
  }

  override async write(
    roomId: string,
    epoch: number,
    owner: string,
    w: SnapshotWrite,
    ttlMs: number,
  ): Promise<WriteResult> {
    const r = await super.write(roomId, epoch, owner, w, ttlMs);
    if (r === 'ok') await this.persist(roomId);
    return r;
  }

  override async drop(roomId: string, epoch: number): Promise<boolean> {
    const r = await super.drop(roomId, epoch);
    if (r) await this.persist(roomId);
    return r;
  }

  override async close(): Promise<void> {
    await super.close();
    while (this.flushing) await this.flushing;
  }

  /** Resolves once `roomId`'s current state is on disk. */
  private async persist(roomId: string): Promise<void> {
    this.dirty.add(roomId);
    // A flush already writing may have read this room before the change: wait for the next one.
    while (this.dirty.has(roomId)) {
      this.flushing ??= new Promise<void>((r) => setImmediate(r)).then(() => this.flush());
      await this.flushing;
    }
  }

  private async flush(): Promise<void> {
    const ids = [...this.dirty];
    this.dirty.clear();
    try {
      await Promise.all(ids.map((id) => this.writeRoom(id)));
    } finally {
      this.flushing = null;
    }
  }

  private async writeRoom(roomId: string): Promise<void> {
    const path = join(this.dir, fileOf(roomId));
    const rec = this.rooms.get(roomId);
    // A dropped room has nothing to restore; its fencing epoch need not outlive this process.
    if (!rec?.snap) {
      await rm(path, { force: true });
      return;
    }
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(rec));
    await rename(tmp, path);
    this.writes++;
  }
}
