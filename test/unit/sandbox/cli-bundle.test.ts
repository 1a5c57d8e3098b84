import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { call, tempDir } from './helpers.js';

describe('the CLI as the app ships it', () => {
  it('runs bundled, with plain node, away from the source tree', { timeout: 60_000 }, async () => {
    const out = tempDir();
    const bundle = join(out, 'sandbox.mjs');
    const built = spawnSync(
      join(process.cwd(), 'node_modules/.bin/esbuild'),
      [
        'src-sandbox/cli.ts',
        '--bundle',
        '--platform=node',
        '--format=esm',
        `--outfile=${bundle}`,
        "--banner:js=import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        '--log-level=error',
      ],
      { encoding: 'utf8' },
    );
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    const child = spawn(
      process.execPath,
      [bundle, '--port', '0', '--data-dir', join(out, 'data')],
      {
        cwd: out,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const { url } = JSON.parse(first) as { url: string };
      const price = await call<{ price: number }>(
        url,
        'GET',
        '/market/market-price?symbol=ADAUSDM',
      );
      expect(price.status).toBe(200);
      expect(price.body.price).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(child.exitCode).toBe(0);
  });
});
