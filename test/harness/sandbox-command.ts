import { resolve } from 'node:path';
import type { SandboxCommand } from '../../src-main/exchange';

const root = resolve(import.meta.dirname, '../..');

/** Runs the sandbox from source with tsx (the harness and tests; Electron runs its bundle). */
export const sourceSandboxCommand: SandboxCommand = {
  command: process.execPath,
  args: ['--import', 'tsx', resolve(root, 'src-sandbox/cli.ts')],
};
