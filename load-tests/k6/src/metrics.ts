/**
 * The k6 metrics of the table runs, made once in the init context (k6 refuses new metrics later).
 * Names follow the Node swarm's report where they mean the same (action→view, actions, raced,
 * errors by kind, tables seated, games finished, sign-ins refused) so summary.ts can put the two
 * tools' figures side by side.
 */
import { Counter, Rate, Trend } from 'k6/metrics';

export const metrics = {
  /** Action sent → first view whose seq ≥ the ack's seq (the swarm's `action`). */
  actionToView: new Trend('action_to_view', true),
  /** Socket created → `welcome` (the swarm's `connect`). */
  connect: new Trend('connect', true),
  /** Acknowledged actions whose view arrived, tagged with the table's `game` and `mode`. */
  actions: new Counter('actions'),
  /** Per action sent: did its view arrive (false: ack timeout, gave up, a rejection no newer view explained). */
  delivered: new Rate('actions_delivered'),
  /** Per action sent: did it leave within 1 s of when its think time ended (false: the client itself lagged). */
  onTime: new Rate('actions_on_time'),
  /** Rejections a newer view explained (someone else moved first): not errors. */
  raced: new Counter('raced'),
  /** Gateway `error`s, schema failures, lost sockets…, tagged by `kind`. */
  errors: new Counter('protocol_errors'),
  /** Tables matched: each seat adds 1/players on its first `matched`, so a full table adds 1. */
  seated: new Counter('tables_seated'),
  /**
   * Per seat of the plan, once: true at its first `matched`, false when it ends unseated (sign-in or
   * socket refused to the end). A share, so each execution segment's runner checks its own part.
   */
  seatedShare: new Rate('seats_seated'),
  /** Games played to the end, in tables (each seat adds 1/players). */
  finished: new Counter('games_finished'),
  /** Guest sign-ins the lobby refused (429): waited out with jittered back-off, never retried at once. */
  signinRefused: new Counter('signin_refused'),
  /** Seats whose socket the gateway kept refusing at the upgrade: they gave up. */
  socketsRefused: new Counter('sockets_refused'),
};
