export * from './core/index.ts';
export { games, type GameTypes, type HulaResult, type OneCardResult, type PokerResult } from './games/index.ts';
export * as poker from './games/poker/api.ts';
export { simAdapters } from './games/sims.ts';
export { runSim, simPlayers, type SimConfig, type SimReport } from './sim/runner.ts';
export type { SimAdapter, IllegalProbe } from './sim/adapter.ts';
export { verifyRecord, type GameRecord, type RecordedStep } from './record/record.ts';
