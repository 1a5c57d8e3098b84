import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * Writes a file so that a crash at any moment leaves either the old or the new content, never a
 * torn one: write a temporary file, fsync it, rename it over the target, fsync the folder.
 */
export const writeFileAtomic = async (path: string, data: string | Uint8Array): Promise<void> => {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  const folder = await open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
};

export type ReadJsonResult<T> =
  { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'invalid'; reason: string };

/** Reads a JSON file and checks it against a schema; says precisely why it could not. */
export const readJsonFile = async <S extends z.ZodType>(
  path: string,
  schema: S,
): Promise<ReadJsonResult<z.output<S>>> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'the file is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { kind: 'ok', value: parsed.data }
    : { kind: 'invalid', reason: parsed.error.issues[0]?.message ?? 'unexpected content' };
};

export const writeJsonFile = (path: string, value: unknown): Promise<void> =>
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
