/**
 * The Ed25519 public keys (raw 32 bytes, base64) whose signatures on update manifests this app
 * accepts. Made by `npm run -s update-key`, whose private half is the repository secret
 * UPDATE_SIGNING_KEY (README: "Installers and releases").
 */
export const UPDATE_PUBLIC_KEYS: readonly string[] = [
  'qGhV+FS4DJI4xuDqHs8h3wn9x9xIZcgaCC/XI0R9+D8=',
];
