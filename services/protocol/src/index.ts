export * from './client.ts';
export * from './chat.ts';
export * from './limits.ts';
export * from './subjects.ts';
export * as bus from './bus.ts';
export * from './codes.ts';
export * from './codec.ts';
export * from './contract.ts';
export { encodeDelivery, decodeDelivery } from './delivery.ts';
