import { load } from 'js-yaml';
import { z } from 'zod';

/**
 * Where the installed app finds its updates: electron-builder writes `app-update.yml` into the
 * app's resources when the release workflow builds it (GitHub releases of one repository).
 */
export const UpdateFeed = z.object({
  provider: z.literal('github'),
  owner: z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/),
  repo: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
});
export type UpdateFeed = z.infer<typeof UpdateFeed>;

/** Reads app-update.yml; null when it names no GitHub repository this app can use. */
export const readUpdateFeed = (yamlText: string): UpdateFeed | null => {
  try {
    const parsed = UpdateFeed.safeParse(load(yamlText));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** The manifest electron-updater reads on this platform (electron-builder's channel files). */
export const manifestFileName = (platform: NodeJS.Platform, arch: string): string => {
  switch (platform) {
    case 'win32':
      return 'latest.yml';
    case 'darwin':
      return 'latest-mac.yml';
    default:
      return arch === 'x64' ? 'latest-linux.yml' : `latest-linux-${arch}.yml`;
  }
};

/** A file attached to the GitHub release of `version` (tags are `v<version>`). */
export const releaseFileUrl = (feed: UpdateFeed, version: string, file: string): string =>
  `https://github.com/${feed.owner}/${feed.repo}/releases/download/v${encodeURIComponent(version)}/` +
  encodeURIComponent(file);

/** Is `candidate` a later version than `current`? (x.y.z; a pre-release comes before its release) */
export const isNewerVersion = (candidate: string, current: string): boolean => {
  const parse = (version: string) => {
    const [core = '', pre] = version.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const a = parse(candidate);
  const b = parse(current);
  for (let i = 0; i < 3; i++) {
    const diff = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  if (a.pre === undefined) return b.pre !== undefined;
  if (b.pre === undefined) return false;
  return a.pre.localeCompare(b.pre, 'en', { numeric: true }) > 0;
};
