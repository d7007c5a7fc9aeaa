import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { parseSync } from 'vite';

/**
 * The import graph of the repository's programs, read from their source with the parser Vite builds
 * with (oxc), so that what counts as an import is what the build sees: `import … from`, `export … from`,
 * `import '…'` and `import('…')`. Paths are relative to the repository root, with forward slashes.
 */

/** One import of one module: a file of the repository, or a package (`react`, `node:crypto`). */
export interface ImportEdge {
  from: string;
  /** The imported file (`src/lib/dates.ts`), or the package's name as written for a bare specifier. */
  to: string;
  kind: 'file' | 'package';
  /** `import type` / `export type`: erased by the compiler, so it cannot take part in a runtime cycle. */
  typeOnly: boolean;
  /** `import('…')`: the bundler puts the file in a chunk of its own, loaded when the call runs. */
  dynamic?: true;
}

interface Specifier {
  value: string;
  typeOnly: boolean;
  dynamic?: true;
}

/**
 * The specifiers `source` imports. A dynamic `import()` whose argument is not a plain string (a
 * template with `${}`, a variable) is left out: which file it loads is only known at run time.
 */
export function importSpecifiers(fileName: string, source: string): Specifier[] {
  const parsed = parseSync(fileName, source);
  if (parsed.errors.length > 0) {
    throw new Error(`${fileName} does not parse: ${parsed.errors[0]?.message}`);
  }
  const { staticImports, staticExports, dynamicImports } = parsed.module;
  const specifiers: Specifier[] = [];
  for (const declaration of staticImports) {
    const typeOnly = declaration.entries.length > 0 && declaration.entries.every((entry) => entry.isType);
    specifiers.push({ value: declaration.moduleRequest.value, typeOnly });
  }
  for (const declaration of staticExports) {
    for (const entry of declaration.entries) {
      if (entry.moduleRequest !== null) {
        specifiers.push({ value: entry.moduleRequest.value, typeOnly: entry.isType });
      }
    }
  }
  for (const call of dynamicImports) {
    const argument = source.slice(call.moduleRequest.start, call.moduleRequest.end);
    const literal = /^(['"`])([^'"`$]*)\1$/.exec(argument);
    if (literal?.[2] !== undefined) specifiers.push({ value: literal[2], typeOnly: false, dynamic: true });
  }
  return specifiers;
}

/**
 * The file a relative specifier names, among `files`; null when none matches. Imports in this
 * repository name the file with its extension; the lookups without one are what TypeScript and Vite
 * would also accept. A Vite query (`?worker`, `?url`) does not change the file.
 */
export function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  const path = posix.join(posix.dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** A package import under the name it is installed as: `@scope/name` or `name`, without the subpath. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * Every import of every file in `sources` (path → text). A relative import of a file that is not
 * among them (a stylesheet, a catalog, a file outside the scanned folders) is still an edge, to the
 * path it names, so that a rule about folders sees it.
 */
export function importGraph(sources: ReadonlyMap<string, string>): ImportEdge[] {
  const files = new Set(sources.keys());
  const edges: ImportEdge[] = [];
  for (const [from, source] of sources) {
    for (const { value, typeOnly, dynamic } of importSpecifiers(from, source)) {
      const how = dynamic ? { typeOnly, dynamic } : { typeOnly };
      if (value.startsWith('.')) {
        const to = resolveRelative(from, value, files) ?? posix.join(posix.dirname(from), value);
        edges.push({ from, to, kind: 'file', ...how });
      } else {
        edges.push({ from, to: value, kind: 'package', ...how });
      }
    }
  }
  return edges;
}

/** The TypeScript files under `folders` of `root`, read as path (relative to `root`) → text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const visit = (folder: string) => {
    const entries = readdirSync(posix.join(root, folder), { withFileTypes: true });
    for (const entry of entries) {
      const path = posix.join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.tsx?$/.test(entry.name)) sources.set(path, readFileSync(posix.join(root, path), 'utf8'));
    }
  };
  for (const folder of folders) visit(folder);
  return sources;
}

/**
 * The import cycles among files, one per strongly connected component (Tarjan), each given as a path
 * that starts and ends at the same file: `a.ts → b.ts → a.ts`. Type-only imports are left out: the
 * compiler erases them, so they cannot make a module see another half-initialised.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.kind !== 'file' || edge.typeOnly) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }

  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(to) ?? 0));
      } else if (onStack.has(to)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(to) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = next.get(file)?.includes(file) ?? false;
    if (component.length > 1 || selfImport) components.push(component);
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) connect(file);

  return components
    .map((component) => cycleThrough(component, next))
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** One closed path through the files of a strongly connected component, from its first file by name. */
function cycleThrough(component: readonly string[], next: ReadonlyMap<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] ?? '';
  // Breadth first from `start` inside the component, back to `start`: the shortest such cycle.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() ?? '';
    for (const to of next.get(file) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path: string[] = [];
        for (let at = file; at !== start; at = cameFrom.get(at) ?? start) path.unshift(at);
        return [start, ...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
