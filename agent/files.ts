import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file readable by its owner only, through a temporary file, an fsync and a rename: a crash
 * leaves the old content or the new, never half of one.
 */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A file's bytes, or null when it does not exist. */
export async function readOptionalFile(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A JSON file's content, or `fallback` when it does not exist yet. */
export async function readJsonFile<T>(file: string, fallback: T): Promise<T> {
  const content = await readOptionalFile(file);
  return content === null ? fallback : (JSON.parse(content.toString('utf8')) as T);
}

/** Removes what writers of `file` that crashed left behind (never read, but taking space). */
export async function removeTemporaries(file: string): Promise<void> {
  const directory = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith('.tmp'))
      await rm(path.join(directory, name), { force: true });
  }
}
