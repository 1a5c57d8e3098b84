import { MAX_TRANSACTION_FILE_CHARS } from '../../../../src-shared/contract/operations';

/**
 * The text of a transaction file the trader chose (a cardano-cli text envelope), read here so
 * that only its content ever goes to main, never a path; or why it cannot be, with what to
 * choose instead (`choose`: "Choose the file your offline device wrote after signing").
 */
export const readTransactionFile = async (
  file: File,
  choose: string,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> => {
  if (file.size > MAX_TRANSACTION_FILE_CHARS) {
    return {
      ok: false,
      message: `“${file.name}” is ${Math.ceil(file.size / 1024)} KiB, far larger than any transaction. ${choose}.`,
    };
  }
  try {
    return { ok: true, text: await file.text() };
  } catch {
    return {
      ok: false,
      message: `“${file.name}” could not be read. Choose it again, or copy it to this computer first.`,
    };
  }
};
