/**
 * vitest globalSetup: builds the client once for the whole run (a vite build costs 3–10 s on a
 * loaded box, and a dozen browser test files each paid it), and hands its folder to every test file
 * through `inject('clientDir')` (see `builtClient` in stack.ts). Tests that need their own build — the
 * one that checks `npm start` serves client/dist — still call `buildClient(outDir)`.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildClient } from './build.ts';

export default function setup(project: TestProject): () => void {
  const dir = buildClient();
  project.provide('clientDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    clientDir: string;
  }
}
