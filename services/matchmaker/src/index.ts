export {
  startMatchmaker,
  type Matchmaker,
  type MatchmakerDeps,
  type LiveWorker,
  type FailoverReport,
} from './matchmaker.ts';
export { matchmakerConfig, matchmakerOptionTables, queueBudgetOptions, type MatchmakerConfig } from './config.ts';
export { rank, hash32, weightOf, type Candidate } from './placement.ts';
export { autoRebalanceConfig, type AutoRebalanceConfig } from './auto-rebalance-config.ts';
