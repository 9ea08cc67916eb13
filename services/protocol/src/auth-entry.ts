// Server-only entry (jose): `import { signPlayerToken } from '@joke/protocol/auth'`.
export * from './auth.ts';
