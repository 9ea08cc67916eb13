/**
 * The orphan sweep: places rooms whose lease lapsed with nobody running them (every matchmaker was down when
 * their worker died, a failover that failed for some room). Every ORPHAN_SWEEP_MS one replica (claim
 * `orphan-sweep`) reads the leases that came due (the store's expiry index, so its cost does not grow with the
 * tables), and every ORPHAN_SCAN_MS walks every room instead, for any the index lost. State: whether a sweep
 * is running here and when this replica next tries the full scan; a failed sweep is only logged (the next
 * one tries again).
 */
import type { FailoverHost } from './failover.ts';
import { pool } from './util.ts';

export class OrphanSweep {
  private sweeping = false;
  /** When this replica next tries the full scan (0: at its first sweep, so rooms from before are indexed). */
  private nextFullScan = 0;

  constructor(
    private readonly h: FailoverHost,
    /** Whether there is a live worker to place on (and this replica still runs). */
    private readonly anyWorker: () => boolean,
  ) {}

  async sweep(): Promise<void> {
    const { snapshots, match, cfg, metrics: m, log, placer } = this.h;
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      if (!this.anyWorker()) return;
      if (!(await match.claim('orphan-sweep', cfg.matchmakerId, Math.floor(cfg.orphanSweepMs * 0.8)))) return;
      const cheap = snapshots.lapsed?.bind(snapshots);
      const orphans = cheap && !(await this.fullScanDue()) ? await cheap(5_000) : await snapshots.orphans(5_000);
      if (orphans.length === 0) return;
      log.warn({ rooms: orphans.length }, 'orphaned rooms found; placing them');
      await pool(orphans, cfg.failoverConcurrency, async (roomId) => {
        const r = await placer.place(roomId, { v: 1, roomId, restore: true });
        if (!r.ok) log.warn({ roomId, code: r.code }, 'orphan placement failed');
      });
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.warn({ err }, 'orphan sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * Whether this sweep walks every room (`orphans`) rather than only the leases that came due (`lapsed`; a store
   * without it is always walked): once per ORPHAN_SCAN_MS across replicas (claim `orphan-scan`), for a room the
   * expiry index lost. The claim outlives most of the period, so a replica restarted meanwhile skips it.
   */
  private async fullScanDue(): Promise<boolean> {
    const { match, cfg, clock } = this.h;
    if (clock.now() < this.nextFullScan) return false;
    this.nextFullScan = clock.now() + cfg.orphanScanMs;
    return match.claim('orphan-scan', cfg.matchmakerId, Math.floor(cfg.orphanScanMs * 0.8));
  }
}
