/**
 * The JSON columns of `games` (result, record) read back as the engine's types. The lobby wrote them
 * itself from a RoomFinished the bus schema had validated, so the check here is of shape only: a row
 * written by hand or cut short by a bad migration fails loudly at the read instead of deep in the
 * client's 복기 with an undefined field.
 */
import { z } from 'zod';
import type { GameRecord, GameResult } from '@joke/engine';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const looksLikeResult = (v: unknown): boolean =>
  isObject(v) && Array.isArray(v.ranking) && Array.isArray(v.winners) && typeof v.summary === 'string';

const StoredResult = z.custom<GameResult>(looksLikeResult, { message: 'stored game result is malformed' });

const StoredRecord = z.custom<GameRecord>(
  (v) =>
    isObject(v) &&
    typeof v.game === 'string' &&
    isObject(v.options) &&
    Array.isArray(v.players) &&
    Array.isArray(v.actions) &&
    typeof v.seedCommit === 'string' &&
    (v.result === null || looksLikeResult(v.result)),
  { message: 'stored game record is malformed' },
);

export const storedResult = (json: unknown): GameResult => StoredResult.parse(json);
export const storedRecord = (json: unknown): GameRecord => StoredRecord.parse(json);
