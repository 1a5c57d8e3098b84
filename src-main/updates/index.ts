/** The updates area: where updates come from and the check that they are ours. */
export {
  UpdateFeed,
  isNewerVersion,
  manifestFileName,
  readUpdateFeed,
  releaseFileUrl,
} from './feed';
export { plainReleaseNotes } from './notes';
export { UPDATE_PUBLIC_KEYS } from './update-key';
export {
  SIGNATURE_SUFFIX,
  UpdateManifest,
  UpdateRefused,
  checkDownloadedFile,
  checkOffer,
  fetchSignedManifest,
  isSignedBy,
  verifyManifest,
  type FetchManifestOptions,
  type OfferedUpdate,
  type RefusalKind,
} from './verify';
