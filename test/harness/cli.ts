import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleLogger } from '../../src-main/log';
import { startHarness } from './server';

/** `npm run harness -- [--port N] [--data-dir DIR]`: the app in a browser, for development. */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5199' },
    'data-dir': { type: 'string' },
  },
});

const dataDir = values['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'countersign-harness-')));
const harness = await startHarness({
  dataDir,
  port: Number(values.port),
  logger: consoleLogger('harness'),
});
const sandbox = await harness.services.sandbox;
console.log(`Countersign harness: open ${harness.url}`);
if (sandbox) console.log(`Embedded sandbox exchange: ${sandbox.url}`);
console.log(`Data folder: ${dataDir}`);

const stop = () => {
  void harness.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
