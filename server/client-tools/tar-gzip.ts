import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A minimal writer of gzip-compressed ustar archives (POSIX.1-1988), for the trust agent's packages.
 *
 * Why not a library: the maintained `tar` package is not among the project's dependencies, and what
 * the packages need is small and fixed: regular files and directories, no links, no long names, no
 * extended headers, owner and time the same on every entry. ustar is a 512-byte header per entry
 * followed by the content padded to 512 bytes, and two zero blocks at the end; GNU tar, bsdtar (macOS)
 * and Windows' tar.exe read it. Writing it here keeps every byte under our control, which is what
 * makes the packages reproducible: the same entries always give the same archive.
 */

export interface TarEntry {
  /** Path inside the archive, with `/` separators; a directory's ends in `/`. */
  path: string;
  /** Absent for a directory. */
  content?: Uint8Array;
  /** Permission bits, e.g. 0o644. */
  mode: number;
}

const BLOCK = 512;
/** Every entry's modification time: the archive depends on the contents only (2000-01-01T00:00:00Z). */
export const ARCHIVE_MTIME_SECONDS = 946_684_800;
/** The gzip header's operating-system byte (RFC 1952): Unix, whatever system builds the package. */
const GZIP_OS_UNIX = 3;

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`"${value}" does not fit a ${length}-byte tar field.`);
  bytes.copy(header, offset);
}

/** Octal, zero-padded, terminated by NUL, as ustar's numeric fields are. */
function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > length - 1) throw new Error(`${value} does not fit a ${length}-byte tar field.`);
  writeString(header, offset, length, `${digits.padStart(length - 1, '0')}\0`);
}

/** ustar keeps a path of up to 255 bytes as a prefix (155) and a name (100) split at a slash. */
function splitPath(entryPath: string): { prefix: string; name: string } {
  if (Buffer.byteLength(entryPath) <= 100) return { prefix: '', name: entryPath };
  for (let slash = entryPath.indexOf('/'); slash !== -1; slash = entryPath.indexOf('/', slash + 1)) {
    const prefix = entryPath.slice(0, slash);
    const name = entryPath.slice(slash + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') {
      return { prefix, name };
    }
  }
  throw new Error(`The path "${entryPath}" is too long for a ustar archive.`);
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const directory = entry.content === undefined;
  const { prefix, name } = splitPath(entry.path);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, entry.mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, directory ? 0 : (entry.content?.length ?? 0));
  writeOctal(block, 136, 12, ARCHIVE_MTIME_SECONDS);
  block.fill(' ', 148, 156);
  writeString(block, 156, 1, directory ? '5' : '0');
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  let checksum = 0;
  for (const byte of block) checksum += byte;
  writeString(block, 148, 8, `${checksum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** The archive of these entries, in the order given. */
export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry));
    if (entry.content !== undefined) {
      parts.push(Buffer.from(entry.content));
      const padding = (BLOCK - (entry.content.length % BLOCK)) % BLOCK;
      if (padding > 0) parts.push(Buffer.alloc(padding));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/**
 * The archive, gzip-compressed. zlib leaves the header's time at zero; its operating-system byte
 * depends on the platform zlib was built for, so it is set to Unix for the same bytes everywhere.
 */
export function tarGzip(entries: readonly TarEntry[], options: { level?: number } = {}): Buffer {
  const compressed = gzipSync(tarArchive(entries), { level: options.level ?? 9 });
  compressed[9] = GZIP_OS_UNIX;
  return compressed;
}

/** A regular file read from an archive: its path, permission bits and content. */
export interface TarFile {
  path: string;
  mode: number;
  content: Buffer;
}

function field(block: Buffer, offset: number, length: number): string {
  return block
    .subarray(offset, offset + length)
    .toString('utf8')
    .replace(/\0.*$/s, '');
}

/**
 * The regular files of a gzip-compressed tar archive, such as a package of the npm registry: ustar
 * names with their prefix, pax `path` records and GNU long names; links and devices are skipped.
 */
export function readTarGzip(compressed: Uint8Array): TarFile[] {
  const tar = gunzipSync(compressed);
  const files: TarFile[] = [];
  let longName: string | null = null;
  let offset = 0;
  while (offset + BLOCK <= tar.length && tar[offset] !== 0) {
    const block = tar.subarray(offset, offset + BLOCK);
    const size = Number.parseInt(field(block, 124, 12).trim() || '0', 8);
    const type = field(block, 156, 1) || '0';
    const content = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (content.length < size) throw new Error('The archive ends inside an entry.');
    if (type === 'x') {
      const record = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(content.toString('utf8'));
      longName = record?.[1] ?? longName;
    } else if (type === 'L') {
      longName = content.toString('utf8').replace(/\0.*$/s, '');
    } else {
      const prefix = field(block, 345, 155);
      const name = longName ?? `${prefix === '' ? '' : `${prefix}/`}${field(block, 0, 100)}`;
      longName = null;
      if (type === '0' || type === '7') {
        files.push({
          path: name,
          mode: Number.parseInt(field(block, 100, 8), 8),
          content: Buffer.from(content),
        });
      }
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
