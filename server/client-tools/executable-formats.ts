/**
 * The few facts of Mach-O and PE executables the packages need: removing the code signature the
 * Node.js binary came with (injecting the agent invalidates it, decision 032), and reading back what
 * an executable holds, for the package tests. Thin 64-bit little-endian files only, as Node.js ships.
 */

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const MACHO_HEADER_SIZE = 32;
/** __LINKEDIT's size in memory is rounded to Apple silicon's 16 KiB pages, as the linker does. */
const MACHO_PAGE = 0x4000;

export const MACHO_CPU = { x64: 0x01000007, arm64: 0x0100000c } as const;

export interface MachOCommand {
  cmd: number;
  offset: number;
  size: number;
  /** A segment's name, for LC_SEGMENT_64. */
  segment?: string;
}

export interface MachOInfo {
  cpu: number;
  commands: MachOCommand[];
}

function cString(bytes: Buffer, offset: number, length: number): string {
  return bytes
    .subarray(offset, offset + length)
    .toString('latin1')
    .replace(/\0.*$/s, '');
}

export function readMachO(bytes: Buffer): MachOInfo {
  if (bytes.length < MACHO_HEADER_SIZE || bytes.readUInt32LE(0) !== MH_MAGIC_64) {
    throw new Error('Not a thin 64-bit Mach-O executable.');
  }
  const count = bytes.readUInt32LE(16);
  const commands: MachOCommand[] = [];
  let offset = MACHO_HEADER_SIZE;
  for (let index = 0; index < count; index += 1) {
    const cmd = bytes.readUInt32LE(offset);
    const size = bytes.readUInt32LE(offset + 4);
    commands.push({
      cmd,
      offset,
      size,
      ...(cmd === LC_SEGMENT_64 ? { segment: cString(bytes, offset + 8, 16) } : {}),
    });
    offset += size;
  }
  return { cpu: bytes.readUInt32LE(4), commands };
}

export function machOHasSignature(bytes: Buffer): boolean {
  return readMachO(bytes).commands.some((command) => command.cmd === LC_CODE_SIGNATURE);
}

/**
 * The binary without its code signature, as `codesign --remove-signature` leaves it: the
 * LC_CODE_SIGNATURE command removed, __LINKEDIT ending where the signature began, the file cut there.
 * macOS runs nothing unsigned on Apple silicon, so the installer signs the result on the Mac (ad hoc).
 */
export function removeMachOSignature(input: Buffer): Buffer {
  const { commands } = readMachO(input);
  const signature = commands.find((command) => command.cmd === LC_CODE_SIGNATURE);
  if (!signature) return input;
  const bytes = Buffer.from(input);
  const dataOffset = bytes.readUInt32LE(signature.offset + 8);
  const dataSize = bytes.readUInt32LE(signature.offset + 12);
  const linkedit = commands.find((command) => command.segment === '__LINKEDIT');
  if (!linkedit) throw new Error('The Mach-O executable has a signature but no __LINKEDIT segment.');
  const segmentFileOffset = Number(bytes.readBigUInt64LE(linkedit.offset + 40));
  const segmentFileSize = Number(bytes.readBigUInt64LE(linkedit.offset + 48));
  if (segmentFileOffset + segmentFileSize !== dataOffset + dataSize || dataOffset + dataSize > bytes.length) {
    throw new Error('The code signature is not at the end of __LINKEDIT: it cannot be removed safely.');
  }
  const newFileSize = dataOffset - segmentFileOffset;
  bytes.writeBigUInt64LE(BigInt(newFileSize), linkedit.offset + 48);
  bytes.writeBigUInt64LE(BigInt(Math.ceil(newFileSize / MACHO_PAGE) * MACHO_PAGE), linkedit.offset + 32);
  // The commands after the signature's move up over it; the space it leaves is zeroed.
  const commandsEnd = MACHO_HEADER_SIZE + bytes.readUInt32LE(20);
  bytes.copy(bytes, signature.offset, signature.offset + signature.size, commandsEnd);
  bytes.fill(0, commandsEnd - signature.size, commandsEnd);
  bytes.writeUInt32LE(bytes.readUInt32LE(16) - 1, 16);
  bytes.writeUInt32LE(bytes.readUInt32LE(20) - signature.size, 20);
  return bytes.subarray(0, dataOffset);
}

const PE32_PLUS = 0x20b;
const IMAGE_DIRECTORY_ENTRY_SECURITY = 4;
export const PE_MACHINE_AMD64 = 0x8664;

export interface PeInfo {
  machine: number;
  /** 3 for a console program, 2 for a windowed one. */
  subsystem: number;
  /** The Authenticode certificate table: file offset and size, both 0 when unsigned. */
  certificateTable: { offset: number; size: number };
  /** Where the table's entry is, to clear it. */
  securityEntryOffset: number;
  checksumOffset: number;
}

export function readPe(bytes: Buffer): PeInfo {
  if (bytes.length < 0x40 || bytes.toString('latin1', 0, 2) !== 'MZ') throw new Error('Not a PE executable.');
  const pe = bytes.readUInt32LE(0x3c);
  if (bytes.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('Not a PE executable.');
  const optional = pe + 24;
  if (bytes.readUInt16LE(optional) !== PE32_PLUS) throw new Error('Not a 64-bit (PE32+) executable.');
  const securityEntryOffset = optional + 112 + IMAGE_DIRECTORY_ENTRY_SECURITY * 8;
  return {
    machine: bytes.readUInt16LE(pe + 4),
    subsystem: bytes.readUInt16LE(optional + 68),
    certificateTable: {
      offset: bytes.readUInt32LE(securityEntryOffset),
      size: bytes.readUInt32LE(securityEntryOffset + 4),
    },
    securityEntryOffset,
    checksumOffset: optional + 64,
  };
}

/**
 * The executable without its Authenticode signature, as `signtool remove /s` leaves it: the
 * certificate table (always at the end of the file) cut off and its directory entry cleared. A signature
 * left in place would no longer match the injected file and Windows would call it invalid.
 */
export function removePeSignature(input: Buffer): Buffer {
  const info = readPe(input);
  const { offset, size } = info.certificateTable;
  if (size === 0) return input;
  if (offset + size !== input.length) {
    throw new Error('The certificate table is not at the end of the file: it cannot be removed safely.');
  }
  const bytes = Buffer.from(input.subarray(0, offset));
  bytes.writeUInt32LE(0, info.securityEntryOffset);
  bytes.writeUInt32LE(0, info.securityEntryOffset + 4);
  // The checksum covered the table; 0 means "not computed", which Windows accepts for programs.
  bytes.writeUInt32LE(0, info.checksumOffset);
  return bytes;
}
