import { z } from 'zod';
import { event, operation } from './define';

/**
 * Where the app's self-update stands:
 * - `disabled`: this copy does not update itself (not installed from a release); `reason` says why.
 * - `idle`: nothing newer was found (or nothing was checked yet).
 * - `checking`, `available` (a signed, newer version), `downloading` (`progress` 0–100),
 *   `ready` (downloaded and checked: installs when the trader agrees).
 * - `refused`: the update failed the signature check and will not be installed; `reason` says
 *   what happened and what to do.
 * - `failed`: the check or the download did not complete (offline, …); `reason` says so.
 */
export const UpdateState = z.enum([
  'disabled',
  'idle',
  'checking',
  'available',
  'downloading',
  'ready',
  'refused',
  'failed',
]);
export type UpdateState = z.infer<typeof UpdateState>;

export const UpdateStatusSchema = z.object({
  state: UpdateState,
  currentVersion: z.string(),
  /** The newer version on offer (available, downloading, ready, or the one refused). */
  availableVersion: z.string().nullable(),
  /** What is new in it, as plain text. */
  releaseNotes: z.string().nullable(),
  /** Percent downloaded, while downloading. */
  progress: z.number().min(0).max(100).nullable(),
  /** For disabled, refused and failed: what happened and what to do, in words. */
  reason: z.string().nullable(),
  /** When the last check finished (epoch ms). */
  checkedAt: z.number().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

export const updates = {
  status: operation<UpdateStatus>().request(z.undefined()),
  /** Looks for a newer version now (it is also checked at start and every few hours). */
  check: operation<UpdateStatus>().request(z.undefined()),
  /** Downloads the available version (started by itself after a check; this retries). */
  download: operation<UpdateStatus>().request(z.undefined()),
  /**
   * The trader agreed: restart into the downloaded version, at once or as soon as no request and
   * no trade is under way (`reason` says it waits), so nothing restarts in the middle of a trade.
   */
  install: operation<UpdateStatus>().request(z.undefined()),
} as const;

export const updatesEvents = {
  'updates:changed': event(UpdateStatusSchema),
} as const;
