import { parseArgs } from 'node:util';
import { startSandbox } from './index.js';

/**
 * `sandbox --port 0 --data-dir DIR [--seed N] [--no-market-maker] [--no-takers] [--no-history]
 * [--no-rate-limit] [--exit-with-parent]`: prints
 * `{"url": "http://127.0.0.1:PORT", "adminToken": "<64 hex>"}` (and `"notice"` when its data
 * was damaged and a fresh exchange started) as its first stdout line; SIGTERM or SIGINT stop it
 * cleanly.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      seed: { type: 'string' },
      'confirmation-delay-ms': { type: 'string' },
      'withdrawal-delay-ms': { type: 'string' },
      'no-market-maker': { type: 'boolean', default: false },
      'no-takers': { type: 'boolean', default: false },
      'no-history': { type: 'boolean', default: false },
      'no-rate-limit': { type: 'boolean', default: false },
      'exit-with-parent': { type: 'boolean', default: false },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) {
    process.stderr.write('usage: sandbox --data-dir DIR [--port 0]\n');
    process.exit(2);
  }
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const sandbox = await startSandbox({
    port: Number(values.port),
    host: values.host,
    dataDir,
    seed: number(values.seed),
    confirmationDelayMs: number(values['confirmation-delay-ms']),
    withdrawalDelayMs: number(values['withdrawal-delay-ms']),
    marketMaker: !values['no-market-maker'],
    takers: !values['no-takers'],
    history: !values['no-history'],
    ...(values['no-rate-limit'] ? { rateLimit: false as const } : {}),
  });
  process.stdout.write(
    JSON.stringify({
      url: sandbox.url,
      adminToken: sandbox.adminToken,
      ...(sandbox.notice ? { notice: sandbox.notice } : {}),
    }) + '\n',
  );
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`sandbox: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Run by the app: stdin is a pipe from the parent, and it closes when the parent dies, even by
  // kill -9. Stop then, so no orphaned exchange keeps running.
  if (values['exit-with-parent']) {
    process.stdin.once('close', stop);
    process.stdin.once('end', stop);
    process.stdin.resume();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
