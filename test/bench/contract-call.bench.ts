import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices } from '../../src-main/app';
import { silentLogger } from '../../src-main/log';
import { measure, reportMicros } from './measure';

/**
 * The cost of one contract call through the binder: find the operation, validate the payload
 * against its zod schema, call the service, wrap the result. Every renderer request pays it.
 */
const dataDir = await mkdtemp(join(tmpdir(), 'cs-bench-'));
const services = await createAppServices({
  name: 'Countersign',
  version: '0.0.0',
  dataDir,
  runtime: 'harness',
  logger: silentLogger,
  send: () => {},
});

reportMicros(
  'ipc.binder.call',
  await measure(() => services.dispatch('app:info', undefined), {
    iterations: 200_000,
    warmup: 20_000,
  }),
  { operation: 'app:info (validate + dispatch + wrap)' },
);
reportMicros(
  'ipc.binder.rejected_payload',
  await measure(() => services.dispatch('app:info', { unexpected: true }), {
    iterations: 100_000,
    warmup: 10_000,
  }),
  { operation: 'app:info with a payload that breaks the schema' },
);

await services.dispose();
await rm(dataDir, { recursive: true, force: true });
