export * from './client.ts';
export * from './chat.ts';
export * from './limits.ts';
export * from './subjects.ts';
export * as bus from './bus.ts';
