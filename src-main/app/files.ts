/**
 * What a saved file is, for the save dialog's filter: a CSV export, or a transaction to be signed
 * on another device (a cardano-cli text envelope, JSON).
 */
export type SavedFileKind = 'csv' | 'transaction';

/** Saves a file where the trader chooses (Electron: the save dialog); null when cancelled. */
export type SaveFile = (
  suggestedName: string,
  content: string,
  kind: SavedFileKind,
) => Promise<{ fileName: string } | null>;
