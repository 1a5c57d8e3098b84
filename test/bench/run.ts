import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench [-- name-filter]`: runs every test/bench/*.bench.ts in its own process, one
 * after another (so they do not compete for the two cores), and passes on their JSON lines.
 * `BENCH_NODE=/path/to/node` runs them on another Node.js than the one running this (the app's
 * main process runs on Electron's own, a newer V8 than the Node.js a developer may have).
 */
const here = import.meta.dirname;
const filter = process.argv[2] ?? '';
const benches = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts') && file.includes(filter))
  .sort((a, b) =>
    a === 'contract-call.bench.ts' ? -1 : b === 'contract-call.bench.ts' ? 1 : a.localeCompare(b),
  );

const node = process.env['BENCH_NODE'] ?? process.execPath;

let failed = 0;
for (const file of benches) {
  const result = spawnSync(node, ['--import', 'tsx', join(here, file)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    failed++;
    console.log(JSON.stringify({ bench: file, error: `exited with ${result.status}` }));
  }
}
process.exit(failed ? 1 : 0);
