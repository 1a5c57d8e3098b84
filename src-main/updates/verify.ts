import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { load } from 'js-yaml';
import { z } from 'zod';

/**
 * Updates are checked twice. The platform's code signature (macOS, Windows) says who built the
 * installer; on top of that, the release workflow signs each update manifest (latest*.yml) with
 * an Ed25519 key held as a repository secret, and this code checks that detached signature
 * against the public keys pinned in the app before anything is downloaded or installed. The
 * manifest carries each installer's SHA-512, so the check covers the installer too.
 */

/** The detached signature sits next to the manifest: `latest-mac.yml.sig`. */
export const SIGNATURE_SUFFIX = '.sig';
const MAX_MANIFEST_BYTES = 256 * 1024;
const MAX_SIGNATURE_BYTES = 1024;

export type RefusalKind =
  /** The release has no signature for its manifest. */
  | 'unsigned'
  /** The signature does not match the manifest under any pinned key. */
  | 'forged'
  /** The manifest is signed but not readable as one. */
  | 'malformed'
  /** What the updater was offered differs from the signed manifest. */
  | 'different'
  /** The manifest or its signature could not be fetched. */
  | 'unreachable';

/** An update that must not be installed, and why, in words for the trader. */
export class UpdateRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'UpdateRefused';
  }
}

const sha512 = z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'a base64 SHA-512');

/** The parts of electron-builder's update manifest the app relies on. */
export const UpdateManifest = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/),
  files: z
    .array(
      z.object({
        url: z.string().min(1).max(500),
        sha512,
        size: z.number().int().positive().optional(),
      }),
    )
    .min(1),
  releaseDate: z.string().optional(),
  releaseNotes: z.string().nullable().optional(),
});
export type UpdateManifest = z.infer<typeof UpdateManifest>;

/** A pinned key: the raw 32-byte Ed25519 public key, base64. */
const publicKeyOf = (raw: string) =>
  createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw, 'base64').toString('base64url') },
    format: 'jwk',
  });

/** True if `signature` (base64, as the .sig file holds it) signs these exact bytes. */
export const isSignedBy = (
  manifest: Uint8Array,
  signature: string,
  publicKeys: readonly string[],
): boolean => {
  const text = signature.trim();
  if (!/^[A-Za-z0-9+/]{86}==$/.test(text)) return false;
  const bytes = Buffer.from(text, 'base64');
  return publicKeys.some((key) => {
    try {
      return verify(null, manifest, publicKeyOf(key), bytes);
    } catch {
      return false;
    }
  });
};

/** Checks the signature, then reads the manifest. Throws UpdateRefused. */
export const verifyManifest = (
  manifest: Uint8Array,
  signature: string | null,
  publicKeys: readonly string[],
): UpdateManifest => {
  if (signature === null) {
    throw new UpdateRefused(
      'unsigned',
      'This update was published without the signature Countersign requires, so it was not ' +
        'installed. Keep using this version; the next signed release will be offered.',
    );
  }
  if (!isSignedBy(manifest, signature, publicKeys)) {
    throw new UpdateRefused(
      'forged',
      'This update failed Countersign’s signature check: it may have been altered. It was not ' +
        'installed. Keep using this version, and download updates only from the official releases.',
    );
  }
  try {
    return UpdateManifest.parse(load(Buffer.from(manifest).toString('utf8')));
  } catch {
    throw new UpdateRefused(
      'malformed',
      'This update’s description could not be read, so it was not installed. Keep using this ' +
        'version; a corrected release will be offered.',
    );
  }
};

export interface OfferedUpdate {
  version: string;
  files: ReadonlyArray<{ url: string; sha512: string }>;
}

/** The updater must download exactly what the signed manifest lists. Throws UpdateRefused. */
export const checkOffer = (offer: OfferedUpdate, manifest: UpdateManifest): void => {
  const listed = new Map(manifest.files.map((file) => [file.url, file.sha512]));
  const same =
    offer.version === manifest.version &&
    offer.files.length > 0 &&
    offer.files.every((file) => listed.get(file.url) === file.sha512);
  if (!same) {
    throw new UpdateRefused(
      'different',
      'The update on offer differs from the signed release, so it was not installed. Keep ' +
        'using this version; Countersign will check again later.',
    );
  }
};

/** The downloaded installer must be one the signed manifest lists. Throws UpdateRefused. */
export const checkDownloadedFile = async (
  path: string,
  manifest: UpdateManifest,
): Promise<void> => {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const digest = hash.digest('base64');
  if (!manifest.files.some((file) => file.sha512 === digest)) {
    throw new UpdateRefused(
      'different',
      'The downloaded update does not match the signed release, so it was not installed. ' +
        'Countersign will download it again at the next check.',
    );
  }
};

const unreachable = () =>
  new UpdateRefused(
    'unreachable',
    'Countersign could not check the update’s signature (the release could not be reached), so ' +
      'nothing was installed. It will try again later.',
  );

const readLimited = async (response: Response, limit: number): Promise<Uint8Array> => {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) throw unreachable();
  const body = new Uint8Array(await response.arrayBuffer());
  if (body.byteLength > limit) throw unreachable();
  return body;
};

export interface FetchManifestOptions {
  /** The manifest's URL; its signature is at the same URL + `.sig`. */
  url: string;
  publicKeys: readonly string[];
  /** Node's fetch by default; the Electron glue passes Electron's (it follows the OS's proxy). */
  fetch?: (url: string, init: { redirect: 'follow'; signal: AbortSignal }) => Promise<Response>;
  timeoutMs?: number;
}

/** Fetches a release's manifest and its signature and verifies them. Throws UpdateRefused. */
export const fetchSignedManifest = async (
  options: FetchManifestOptions,
): Promise<UpdateManifest> => {
  const get = (url: string) =>
    (options.fetch ?? globalThis.fetch)(url, {
      redirect: 'follow',
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    }).catch(() => {
      throw unreachable();
    });
  const manifestResponse = await get(options.url);
  if (!manifestResponse.ok) throw unreachable();
  const manifest = await readLimited(manifestResponse, MAX_MANIFEST_BYTES);
  const signatureResponse = await get(options.url + SIGNATURE_SUFFIX);
  let signature: string | null = null;
  if (signatureResponse.status === 404) {
    await signatureResponse.body?.cancel();
  } else if (signatureResponse.ok) {
    signature = Buffer.from(await readLimited(signatureResponse, MAX_SIGNATURE_BYTES)).toString(
      'utf8',
    );
  } else {
    throw unreachable();
  }
  return verifyManifest(manifest, signature, options.publicKeys);
};
