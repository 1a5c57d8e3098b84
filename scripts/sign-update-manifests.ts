import { createPrivateKey, sign } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SIGNATURE_SUFFIX, verifyManifest } from '../src-main/updates/verify';
import { UPDATE_PUBLIC_KEYS } from '../src-main/updates/update-key';

/**
 * `tsx scripts/sign-update-manifests.ts DIR`, run by the release workflow with the secret
 * UPDATE_SIGNING_KEY (PKCS#8 PEM): signs every update manifest (latest*.yml) in DIR with Ed25519,
 * writing the detached signature beside it (`latest.yml.sig`, base64), then checks each one the
 * way the installed app will, against the public keys pinned in the app. A key that the app
 * would not accept stops the release.
 */
export const isUpdateManifest = (name: string): boolean => /^latest(-[a-z0-9-]+)?\.yml$/.test(name);

export const signUpdateManifests = async (
  dir: string,
  privateKeyPem: string,
  pinnedKeys: readonly string[] = UPDATE_PUBLIC_KEYS,
): Promise<string[]> => {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error('UPDATE_SIGNING_KEY is not an Ed25519 private key (npm run -s update-key).');
  }
  const manifests = (await readdir(dir)).filter(isUpdateManifest).sort();
  if (manifests.length === 0) throw new Error(`There is no update manifest (latest*.yml) to sign.`);
  for (const name of manifests) {
    const manifest = await readFile(join(dir, name));
    const signature = sign(null, manifest, key).toString('base64');
    await writeFile(join(dir, name + SIGNATURE_SUFFIX), `${signature}\n`);
    try {
      verifyManifest(manifest, signature, pinnedKeys);
    } catch (error) {
      throw new Error(
        `${name}: the installed app would refuse this signature (${(error as Error).message}) ` +
          'Is UPDATE_SIGNING_KEY the private half of a key pinned in src-main/updates/update-key.ts?',
        { cause: error },
      );
    }
  }
  return manifests;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  const key = process.env['UPDATE_SIGNING_KEY'];
  if (!dir || !key) {
    console.error(
      'Usage: UPDATE_SIGNING_KEY=<PKCS#8 PEM> tsx scripts/sign-update-manifests.ts DIR ' +
        '(the repository secret UPDATE_SIGNING_KEY is not set: releases cannot be published ' +
        'without it, since the installed app refuses unsigned updates).',
    );
    process.exit(1);
  }
  signUpdateManifests(dir, key).then(
    (signed) => console.log(`Signed ${signed.join(', ')}.`),
    (error: unknown) => {
      console.error(`The update manifests were not signed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
