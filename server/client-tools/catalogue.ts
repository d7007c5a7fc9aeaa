import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import * as v from 'valibot';
import { apiPaths } from '../../contract/paths.ts';
import {
  CLIENT_TOOL_OPERATING_SYSTEMS,
  type ClientTool,
  type ClientToolFile,
  type ClientToolOs,
  clientToolSegmentSchema,
} from '../../contract/schemas/client-tools.ts';
import { agentPackageFileName, catalogueFilePath } from './agent-package.ts';
import { AGENT_TARGETS } from './runtimes.ts';

/** The operator's list of tools beside our agent, in the catalogue directory. */
export const CATALOGUE_MANIFEST = 'catalogue.json';

const OS_NAMES: Record<ClientToolOs, string> = { linux: 'Linux', mac: 'macOS', windows: 'Windows' };

/**
 * Our trust agent, one tool per system and processor; its files are the packages `npm run
 * agent:package` builds, each an executable carrying Node.js.
 */
export const AGENT_TOOLS = AGENT_TARGETS.map((target) => ({
  id: `trust-assistant-${target.id}`,
  target: target.id,
  name: 'Trust assistant',
  os: target.os,
  arch: target.arch,
  fileName: (version: string) => agentPackageFileName(version, target.id),
  label: `${OS_NAMES[target.os]} ${target.arch} package (.tar.gz)`,
}));

const manifestFileSchema = v.strictObject({
  name: clientToolSegmentSchema,
  folder: clientToolSegmentSchema,
  label: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
});

const manifestToolSchema = v.strictObject({
  id: clientToolSegmentSchema,
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  os: v.picklist(CLIENT_TOOL_OPERATING_SYSTEMS),
  arch: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,32}$/)),
  versions: v.array(clientToolSegmentSchema),
  files: v.array(manifestFileSchema),
});

/**
 * `catalogue.json`: tools an operator places beside our agent (the desktop client, sensors, …). Each
 * file lives at `<id>/<folder>/<name>` in the catalogue directory, its folder named after one of the
 * tool's versions. Hashes are never taken from here: the server computes them from the files.
 */
export const catalogueManifestSchema = v.strictObject({ tools: v.array(manifestToolSchema) });
type ManifestTool = v.InferOutput<typeof manifestToolSchema>;

interface FileHashes {
  sha1: string;
  sha256: string;
}

/** A file the catalogue serves: what the list says of it and where it is on disk. */
export interface CatalogueFile extends ClientToolFile {
  path: string;
}

export interface Catalogue {
  /** The tools as the public list answers them, with the files present and their hashes. */
  list(): Promise<ClientTool[]>;
  /** One file of the list, or null: only names the list holds are ever opened. */
  file(id: string, folder: string, name: string): Promise<CatalogueFile | null>;
}

function compareVersionsNewestFirst(a: string, b: string): number {
  const left = semver.valid(a);
  const right = semver.valid(b);
  if (left !== null && right !== null) return semver.rcompare(left, right);
  return b.localeCompare(a, 'en', { numeric: true });
}

async function statIfFile(file: string): Promise<Stats | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function directoriesIn(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Both hashes in one pass over the file, streamed. */
function hashFile(file: string): Promise<FileHashes> {
  return new Promise((resolve, reject) => {
    const sha1 = createHash('sha1');
    const sha256 = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => {
        sha1.update(chunk);
        sha256.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ sha1: sha1.digest('hex'), sha256: sha256.digest('hex') }));
  });
}

interface ToolSource {
  id: string;
  name: string;
  os: ClientToolOs;
  arch: string;
  /** Version folder and files expected in it, in the order they are listed. */
  files: { folder: string; name: string; label: string }[];
}

/**
 * The catalogue kept in `directory`: our agent's packages (`trust-assistant-<os>/<version>/…`, every
 * version found there) and the tools of `catalogue.json`. The directory is read again on every
 * list, so a file an operator adds, replaces or removes shows without a restart; a file is hashed
 * again only when its size or modification time changes.
 */
export function createCatalogue(options: {
  directory: string;
  publicUrl: string;
  warn?: (message: string) => void;
}): Catalogue {
  const { directory, publicUrl } = options;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const hashes = new Map<string, { mtimeMs: number; size: number; hashes: Promise<FileHashes> }>();
  /** Said once per problem, not on every request that meets it. */
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    warn(message);
  };
  let manifestCache: { key: string; tools: ManifestTool[] } | null = null;

  function hashesOf(file: string, info: Stats): Promise<FileHashes> {
    const cached = hashes.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.hashes;
    const computed = hashFile(file);
    hashes.set(file, { mtimeMs: info.mtimeMs, size: info.size, hashes: computed });
    computed.catch(() => hashes.delete(file));
    return computed;
  }

  async function manifestTools(): Promise<ManifestTool[]> {
    const file = path.join(directory, CATALOGUE_MANIFEST);
    const info = await statIfFile(file);
    if (info === null) return [];
    const key = `${info.mtimeMs}:${info.size}`;
    if (manifestCache?.key === key) return manifestCache.tools;
    let tools: ManifestTool[] = [];
    try {
      const parsed = v.safeParse(catalogueManifestSchema, JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success) {
        const agentIds = new Set(AGENT_TOOLS.map((tool) => tool.id));
        const seen = new Set<string>();
        tools = parsed.output.tools.filter((tool) => {
          if (agentIds.has(tool.id) || seen.has(tool.id)) {
            warnOnce(`${file}: the tool id "${tool.id}" is taken; that entry is left out.`);
            return false;
          }
          seen.add(tool.id);
          return true;
        });
      } else {
        const issue = parsed.issues[0];
        const where = issue ? v.getDotPath(issue) : null;
        warnOnce(
          `${file} is not a valid client-tools catalogue (${where ?? 'top level'}: ${issue?.message ?? 'invalid'}); only the trust assistant is listed.`,
        );
      }
    } catch (error) {
      warnOnce(
        `${file} could not be read as JSON (${(error as Error).message}); only the trust assistant is listed.`,
      );
    }
    manifestCache = { key, tools };
    return tools;
  }

  async function sources(): Promise<ToolSource[]> {
    const agents = await Promise.all(
      AGENT_TOOLS.map(async (tool) => ({
        id: tool.id,
        name: tool.name,
        os: tool.os,
        arch: tool.arch,
        files: (await directoriesIn(path.join(directory, tool.id)))
          .filter((folder) => v.is(clientToolSegmentSchema, folder))
          .map((folder) => ({ folder, name: tool.fileName(folder), label: tool.label })),
      })),
    );
    const operated = (await manifestTools()).map((tool) => ({
      id: tool.id,
      name: tool.name,
      os: tool.os,
      arch: tool.arch,
      files: tool.files.filter((file) => {
        if (tool.versions.includes(file.folder)) return true;
        warnOnce(
          `${CATALOGUE_MANIFEST}: ${tool.id}'s file ${file.name} is in folder ${file.folder}, which is none of its versions; it is left out.`,
        );
        return false;
      }),
    }));
    return [...agents, ...operated];
  }

  async function describe(tool: ToolSource): Promise<{ tool: ClientTool; files: CatalogueFile[] } | null> {
    const present = await Promise.all(
      tool.files.map(async (file): Promise<CatalogueFile | null> => {
        const location = catalogueFilePath(directory, tool.id, file.folder, file.name);
        const info = await statIfFile(location);
        if (info === null) return null;
        return { ...file, ...(await hashesOf(location, info)), size: info.size, path: location };
      }),
    );
    const files: CatalogueFile[] = [];
    tool.files.forEach((file, index) => {
      const found = present[index];
      if (found) files.push(found);
      else if (!AGENT_TOOLS.some((agent) => agent.id === tool.id)) {
        warnOnce(
          `${CATALOGUE_MANIFEST} lists ${tool.id}/${file.folder}/${file.name}, which is not in ${directory}; it is left out.`,
        );
      }
    });
    if (files.length === 0) return null;
    const versions = [...new Set(files.map((file) => file.folder))].sort(compareVersionsNewestFirst);
    files.sort((a, b) => compareVersionsNewestFirst(a.folder, b.folder));
    const newest = files[0] as CatalogueFile;
    return {
      tool: {
        id: tool.id,
        arch: tool.arch,
        name: tool.name,
        os: tool.os,
        link: `${publicUrl}${apiPaths.clientTools.file(tool.id, newest.folder, newest.name)}`,
        versions,
        files: files.map(({ path: _path, ...listed }) => listed),
      },
      files,
    };
  }

  async function scan() {
    const described = await Promise.all((await sources()).map(describe));
    // A file gone from the directory takes its hashes with it.
    const present = new Set(described.flatMap((entry) => entry?.files.map((file) => file.path) ?? []));
    for (const file of hashes.keys()) if (!present.has(file)) hashes.delete(file);
    return described
      .filter((entry) => entry !== null)
      .sort(
        (a, b) =>
          a.tool.name.localeCompare(b.tool.name, 'en') ||
          a.tool.os.localeCompare(b.tool.os) ||
          a.tool.arch.localeCompare(b.tool.arch),
      );
  }

  return {
    list: async () => (await scan()).map((entry) => entry.tool),
    file: async (id, folder, name) => {
      const entry = (await scan()).find((candidate) => candidate.tool.id === id);
      return entry?.files.find((file) => file.folder === folder && file.name === name) ?? null;
    },
  };
}
