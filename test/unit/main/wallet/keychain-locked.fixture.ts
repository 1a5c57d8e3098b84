// Run by keychain.test.ts inside its own private keyring session: stores a wallet's secrets,
// locks the keyring, then reports what a trader would meet. Prints one JSON line.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  cryptoIsReady,
  generateOperationKey,
  KeychainSecretStore,
  WalletSecrets,
} from '../../../../src-main/wallet';

await cryptoIsReady();
const store = new KeychainSecretStore(`Countersign-locked-${randomUUID()}`);
const secrets = new WalletSecrets(store, { N: 1024, r: 8, p: 1 });
const walletId = randomUUID();
const password = 'violet tractor sunrise';
await secrets.write(
  await secrets.seal(walletId, password, { operationKey: generateOperationKey() }),
);
const blobBefore = await store.read(`wallet/${walletId}/operation-key`);

execFileSync('dbus-send', [
  '--session',
  '--dest=org.freedesktop.secrets',
  '--type=method_call',
  '--print-reply',
  '/org/freedesktop/secrets',
  'org.freedesktop.Secret.Service.Lock',
  'array:objpath:/org/freedesktop/secrets/collection/login',
]);

const outcome = async (work: () => Promise<unknown>) =>
  work().then(
    () => ({ code: 'NONE', message: '' }),
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
  );
const write = await outcome(() =>
  secrets.write({ entries: [[`wallet/${randomUUID()}/root`, 'x']] }),
);
const unlock = await outcome(() => secrets.openOperationKey(walletId, password));
console.log(JSON.stringify({ blobBefore: blobBefore !== null, write, unlock }));
