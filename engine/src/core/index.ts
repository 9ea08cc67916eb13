export * from './types.ts';
export * from './rng.ts';
export * from './commit.ts';
export * from './reject.ts';
export * from './cards.ts';
export * from './seats.ts';
export * from './options.ts';
export * from './versions.ts';
