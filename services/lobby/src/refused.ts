/**
 * A refusal from the bus (its machine code from @joke/protocol REFUSALS) carried as a TRPCError's cause, so
 * the error formatter can put the code in `data.refusal` beside the Korean message: a client tells "the
 * fleet is full, try later" (`capacity`) from other refusals by code, never by parsing text.
 */
import type { RefusalCode } from '@joke/protocol';

export class BusRefusal extends Error {
  constructor(readonly code: RefusalCode) {
    super(`refused: ${code}`);
    this.name = 'BusRefusal';
  }
}

/**
 * Why a 복기 (history.replay) was refused, as a machine code the client acts on (ask to sign in, say
 * "still playing") beside the Korean message; the error formatter puts it in `data.replay`.
 */
export type ReplayRefusalCode = 'playing' | 'notFound' | 'signIn' | 'private';

export class ReplayRefusal extends Error {
  constructor(readonly code: ReplayRefusalCode) {
    super(`replay refused: ${code}`);
    this.name = 'ReplayRefusal';
  }
}
