export { runSwarm, type SwarmRun, type SwarmReport, type TableStats, type AckRecord } from './swarm-core.ts';
export { SwarmOptions, parseArgs, type SwarmOptionsInput } from './options.ts';
export { Latencies, quantile, round } from './stats.ts';
export { Bot, type BotConfig, type BotSink } from './bot.ts';
export { startStack, type Stack, type StackOptions } from './stack.ts';
