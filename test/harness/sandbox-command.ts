import { resolve } from 'node:path';
import type { SandboxCommand } from '../../src-main/exchange';

const root = resolve(import.meta.dirname, '../..');

/** Runs the sandbox from source with tsx (the harness and tests; Electron runs its bundle). */
export const sourceSandboxCommand: SandboxCommand = {
  command: process.execPath,
  args: ['--import', 'tsx', resolve(root, 'src-sandbox/cli.ts')],
};

/**
 * Flags for a sandbox used to measure or to replay: no market maker or takers moving the book, no past trades,
 * no rate limit, deposits usable at once. `--port 0` picks a free port.
 */
export const quietSandboxArgs = (dataDir: string): string[] => [
  '--port',
  '0',
  '--data-dir',
  dataDir,
  '--no-market-maker',
  '--no-takers',
  '--no-history',
  '--no-rate-limit',
  '--confirmation-delay-ms',
  '0',
];
