import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm run -s update-key [-- --replace]`: makes the Ed25519 key pair that signs update manifests.
 * The public key is pinned in the app (src-main/updates/update-key.ts): added to the keys it
 * accepts, or replacing them with --replace. The private key is printed once, for the
 * repository secret UPDATE_SIGNING_KEY; it is written nowhere.
 */
export const KEY_FILE = resolve(import.meta.dirname, '../src-main/updates/update-key.ts');

export interface UpdateKeyPair {
  /** PKCS#8 PEM: the value of the UPDATE_SIGNING_KEY secret. */
  privateKeyPem: string;
  /** The raw 32-byte public key, base64: what the app pins. */
  publicKey: string;
}

export const newUpdateKeyPair = (): UpdateKeyPair => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: Buffer.from(jwk.x ?? '', 'base64url').toString('base64'),
  };
};

/** The pinned keys named in the key file's source. */
export const pinnedKeysIn = (source: string): string[] =>
  [...source.matchAll(/'([A-Za-z0-9+/]{43}=)'/g)].map((match) => match[1] ?? '');

export const keyFileSource = (keys: readonly string[]): string => `/**
 * The Ed25519 public keys (raw 32 bytes, base64) whose signatures on update manifests this app
 * accepts. Made by \`npm run -s update-key\`, whose private half is the repository secret
 * UPDATE_SIGNING_KEY (README: "Installers and releases").
 */
export const UPDATE_PUBLIC_KEYS: readonly string[] = [
${keys.map((key) => `  '${key}',`).join('\n')}
];
`;

const main = async () => {
  const replace = process.argv.includes('--replace');
  const existing = replace ? [] : pinnedKeysIn(await readFile(KEY_FILE, 'utf8').catch(() => ''));
  const pair = newUpdateKeyPair();
  await writeFile(KEY_FILE, keyFileSource([...existing, pair.publicKey]));
  process.stdout.write(
    `Pinned the new public key in src-main/updates/update-key.ts${replace ? ' (replacing the others)' : ''}.\n` +
      'Store the private key below as the repository secret UPDATE_SIGNING_KEY, then forget it:\n\n' +
      pair.privateKeyPem,
  );
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(`No key was made: ${String(error)}`);
    process.exit(1);
  });
}
