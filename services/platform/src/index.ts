export { startPlatform, type Platform } from './platform.ts';
export { platformConfig, type PlatformConfig } from './config.ts';
