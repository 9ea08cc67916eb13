export { platformBus, startPlatform, type Platform } from './platform.ts';
export { platformConfig, platformConfigFromEnv, type PlatformConfig } from './config.ts';
export { startProduct, type Product } from './product.ts';
