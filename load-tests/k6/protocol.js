// Gateway protocol messages and the one-card policy of the k6 scripts, in plain
// JavaScript with no k6 import, so that load-tests/test/k6.test.ts can check
// them from Node: every message built here must parse with services/protocol's
// ClientMessage schema, every kind the scripts handle must be a ServerMessage,
// and every action the policy picks must be legal in the engine.

export const PROTOCOL_VERSION = 1;
/** services/protocol's PROTOCOL_REVISION: views leave out their fixed members (k6 tables.js merges them). */
export const PROTOCOL_REVISION = 2;

export const hello = (token) => ({ v: PROTOCOL_VERSION, t: 'hello', token, revision: PROTOCOL_REVISION });
export const queue = (game, mode, players) => ({ v: PROTOCOL_VERSION, t: 'queue', game, mode, players });
export const join = (roomId, spectate) =>
  spectate ? { v: PROTOCOL_VERSION, t: 'join', roomId, spectate: true } : { v: PROTOCOL_VERSION, t: 'join', roomId };
export const leave = (roomId) => ({ v: PROTOCOL_VERSION, t: 'leave', roomId });
export const action = (roomId, actionId, act) => ({ v: PROTOCOL_VERSION, t: 'action', roomId, actionId, action: act });
export const ping = (at) => ({ v: PROTOCOL_VERSION, t: 'ping', at });

/** Server message kinds the scripts read. */
export const HANDLED = ['welcome', 'queued', 'matched', 'view', 'ack', 'rejected', 'error', 'pong', 'presence'];

/** The lobby's guest sign-in input (auth.guest): a 2–12 character nickname. */
export const guestInput = (vu) => ({ nickname: `k6vu${vu}`.slice(0, 12) });

const SUITS = ['S', 'H', 'D', 'C'];
const COLORS = ['R', 'Y', 'G', 'B'];

/**
 * A small one-card policy on the player's own view (k6 cannot import the
 * engine's TypeScript bot): declare, choose a colour, accept a +4, play the
 * first legal card (naming a suit/colour when the card needs one), else pass
 * or draw. `rand` is a [0, 1) source.
 */
export function chooseOneCard(view, rand) {
  if (!view || view.finished || !view.hand || view.viewer === null) return null;
  const L = view.legal;
  if (!L) return null;
  if (L.canDeclareOneCard && !L.oneCardIsCatch) return { type: 'declareOneCard' };
  if (L.mustChooseColor) return { type: 'chooseColor', color: COLORS[Math.floor(rand() * 4)] };
  if (L.canChallenge || L.canAcceptWild4) return { type: 'acceptWild4' };
  if (L.canPlay && view.legalCardIds.length > 0) {
    const id = view.legalCardIds[0];
    const play = { type: 'play', cardIds: [id] };
    if (L.mustChooseSuitFor.includes(id)) play.chooseSuit = SUITS[Math.floor(rand() * 4)];
    if (L.mustChooseColorFor.includes(id)) play.chooseColor = COLORS[Math.floor(rand() * 4)];
    return play;
  }
  if (L.canPass) return { type: 'pass' };
  if (L.canDraw) return { type: 'draw' };
  return null;
}
