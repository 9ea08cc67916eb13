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
