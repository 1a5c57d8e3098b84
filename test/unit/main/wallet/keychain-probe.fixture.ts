// Run in a child process by keychain.test.ts with no usable D-Bus: prints the error code.
import { KeychainSecretStore } from '../../../../src-main/wallet/keychain';

try {
  await new KeychainSecretStore('Countersign-probe').read('anything');
  console.log(JSON.stringify({ code: 'NONE' }));
} catch (error) {
  console.log(JSON.stringify({ code: (error as { code?: string }).code }));
}
