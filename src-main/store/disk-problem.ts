/** What a failed read or write of the app's data files means to the trader, and what to do. */
export interface DiskProblem {
  /** What went wrong, in words ("the disk is full"). */
  reason: string;
  /** What the trader can do about it. */
  advice: string;
}

const FULL = 'Free some space on the disk, then try again.';
const DENIED =
  'Check that your user account may write to Countersign’s data folder, then try again.';

const PROBLEMS: Readonly<Record<string, DiskProblem>> = {
  ENOSPC: { reason: 'the disk is full', advice: FULL },
  EDQUOT: { reason: 'your disk quota is used up', advice: FULL },
  EFBIG: { reason: 'a data file reached the largest size the disk allows', advice: FULL },
  EACCES: { reason: 'it is not allowed to write to its data folder', advice: DENIED },
  EPERM: { reason: 'it is not allowed to write to its data folder', advice: DENIED },
  EROFS: { reason: 'its data folder is on a disk that is read-only', advice: DENIED },
  EIO: {
    reason: 'the disk reported an error',
    advice: 'Check the disk (it may be failing or was disconnected), then try again.',
  },
  EMFILE: {
    reason: 'too many files are open on this computer',
    advice: 'Close some programs, then try again.',
  },
  ENFILE: {
    reason: 'too many files are open on this computer',
    advice: 'Close some programs, then try again.',
  },
};

/** The trader's words for a file system error (by its `code`); null for any other error. */
export const diskProblem = (error: unknown): DiskProblem | null => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? (PROBLEMS[code] ?? null) : null;
};
