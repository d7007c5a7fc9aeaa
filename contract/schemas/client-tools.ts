import * as v from 'valibot';
import { listSchema } from './common.ts';

/** Operating systems the catalogue groups its tools by; the console puts the visitor's first. */
export const CLIENT_TOOL_OPERATING_SYSTEMS = ['windows', 'mac', 'linux'] as const;
export type ClientToolOs = (typeof CLIENT_TOOL_OPERATING_SYSTEMS)[number];

/**
 * One segment of a catalogue address (a tool id, a version folder, a file name): letters, digits,
 * `.`, `_`, `+` and `-`, not starting with a dot. No separator and no `..` can pass, so a segment
 * never leaves the catalogue directory, and the file name needs no escaping in Content-Disposition.
 */
export const CLIENT_TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
export const clientToolSegmentSchema = v.pipe(
  v.string(),
  v.regex(CLIENT_TOOL_SEGMENT_PATTERN, 'invalidValue'),
);

/** One downloadable file of a tool (overview §3): its version folder, its label and its hashes. */
export const clientToolFileSchema = v.object({
  name: clientToolSegmentSchema,
  /** The version this file belongs to: the folder it is kept in, named after the version. */
  folder: clientToolSegmentSchema,
  /** What the file is, for people: "Linux package (.tar.gz)". */
  label: v.string(),
  /** Lower-case hexadecimal, computed by the server from the file it serves. */
  sha1: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** Bytes; beyond the spec's file fields, so a download can say how large it is. */
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type ClientToolFile = v.InferOutput<typeof clientToolFileSchema>;

/** A client-tools catalogue entry (overview §3, Q-74): one tool for one operating system and architecture. */
export const clientToolSchema = v.object({
  id: clientToolSegmentSchema,
  /** "x64", "arm64", or "any" for a tool that runs wherever its runtime does. */
  arch: v.string(),
  name: v.string(),
  os: v.picklist(CLIENT_TOOL_OPERATING_SYSTEMS),
  /** Where the newest version's first file downloads. */
  link: v.string(),
  /** Versions with at least one file present, newest first. */
  versions: v.array(v.string()),
  files: v.array(clientToolFileSchema),
});
export type ClientTool = v.InferOutput<typeof clientToolSchema>;

export const clientToolListSchema = listSchema(clientToolSchema);
export type ClientToolList = v.InferOutput<typeof clientToolListSchema>;

export const clientToolFileParamsSchema = v.object({
  id: clientToolSegmentSchema,
  folder: clientToolSegmentSchema,
  name: clientToolSegmentSchema,
});
