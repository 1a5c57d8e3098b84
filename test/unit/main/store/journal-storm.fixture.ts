/**
 * A child process for the journal's kill -9 test: records and removes entries of the
 * pending-operation journal, several at a time, until it is killed. One JSON line per event on
 * stdout: `sent` before a change is asked, `ack` once it answered.
 * Usage: node --import tsx journal-storm.fixture.ts <dataDir> <round>
 */
import { randomUUID } from 'node:crypto';
import { say } from '../../../fixtures/crash/say';
import { OperationJournal, type JournalEntry } from '../../../../src-main/store/journal';

const [dataDir = '', round = '0'] = process.argv.slice(2);

const journal = new OperationJournal(dataDir);
const entry = (id: string, n: number): JournalEntry => ({
  id,
  kind: 'place-order',
  title: `Order ${round}.${n}`,
  network: 'sandbox',
  signedAt: new Date().toISOString(),
  txId: 'ab'.repeat(32),
  // About the size of a signed order transaction.
  signedTxHex: 'cd'.repeat(900 + (n % 200)),
  orderId: randomUUID(),
  cancelsOrderId: null,
  expiresAt: null,
  submitStartedAt: null,
});

let seq = 0;
const change = async (op: 'record' | 'remove', id: string, n: number): Promise<void> => {
  const event = { seq: seq++, op, id };
  say({ sent: event });
  if (op === 'record') await journal.record(entry(id, n));
  else await journal.remove({ network: 'sandbox', id });
  say({ ack: event });
};

say({ ready: true });
// Four writers at once, each recording an operation and removing it one time in two.
let n = 0;
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (;;) {
      const id = randomUUID();
      const mine = n++;
      await change('record', id, mine);
      if (mine % 2 === 0) await change('remove', id, mine);
    }
  }),
);
