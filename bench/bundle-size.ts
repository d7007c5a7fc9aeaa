import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_CONSOLE_LOCALE } from '../contract/locales.ts';
import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { catalogsLoadedByRoute, listRouteFiles } from '../scripts/catalog-reach.ts';

/** One entry of Vite's build manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ScreenFile {
  file: string;
  gzipBytes: number;
  brotliBytes: number;
}

export interface ScreenSize {
  screen: string;
  files: ScreenFile[];
  /** Each file gzipped at the default level, as most tools and the budgets measure. */
  gzipBytes: number;
  /** Each file as the server sends it to a browser that accepts brotli: the build's `.br` copy. */
  brotliBytes: number;
}

/**
 * Builds the console with a manifest into `outDir`; the bench builds its own copy so it measures the
 * source as it is now, whatever dist/console holds.
 */
export function buildConsole(outDir: string): void {
  const result = spawnSync(
    'vite',
    ['build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error('vite build failed');
}

const ROUTES_DIR = 'src/routes/';

/**
 * The route-tree position of a route file as its segments: `_secure/accounts/index.tsx` and
 * `_secure.accounts.index.tsx` both give ['_secure', 'accounts']; `__root.tsx` gives [].
 */
function routeSegments(source: string): string[] | null {
  const [file = ''] = source.split('?');
  if (!file.startsWith(ROUTES_DIR)) return null;
  return file
    .slice(ROUTES_DIR.length)
    .replace(/\.[cm]?[jt]sx?$/, '')
    .split(/[/.]/)
    .filter((segment) => segment !== '__root' && segment !== 'index' && segment !== 'route');
}

/** A URL path's own segments: pathless layouts (`_secure`) and groups (`(public)`) take up none. */
function urlSegments(segments: string[]): string[] {
  return segments.filter((segment) => !segment.startsWith('_') && !/^\(.*\)$/.test(segment));
}

function isPrefix(prefix: string[], of: string[]): boolean {
  return prefix.length <= of.length && prefix.every((segment, index) => of[index] === segment);
}

/** Route parts the browser fetches only when a screen fails or waits: not part of a screen's load. */
const FALLBACK_PART = /\?tsr-split=(?:errorComponent|pendingComponent|notFoundComponent)(?:---|$)/;

/**
 * The source modules of each chunk, read from its source map: a chunk that a group of
 * vite.config.ts's code splitting made (the start, the secure start) holds route files that the
 * manifest does not name.
 */
function chunkSources(outDir: string, manifest: Manifest): Array<{ key: string; source: string }> {
  return Object.entries(manifest).flatMap(([key, chunk]) => {
    if (!chunk.file.endsWith('.js')) return [];
    let sources: string[];
    try {
      sources = (
        JSON.parse(readFileSync(path.join(outDir, `${chunk.file}.map`), 'utf8')) as { sources: string[] }
      ).sources;
    } catch {
      sources = chunk.src ? [chunk.src] : [];
    }
    const root = `${path.resolve('.')}/`;
    return sources.map((source) => ({
      key,
      source: path.resolve(outDir, 'assets', source).replace(root, ''),
    }));
  });
}

/**
 * The chunks a screen loads on demand before it renders: the chunks holding the route files from the
 * root down to the screen's route (code-split parts included, fallbacks not) and the source-locale
 * catalogs it needs, with their static imports.
 */
function chunksFor(outDir: string, manifest: Manifest, urlPath: string): Set<string> {
  // Route files are relative to the console's base path.
  const wanted = urlPath.slice(CONSOLE_BASE_PATH.length).split('/').filter(Boolean);
  const routes = chunkSources(outDir, manifest).flatMap(({ key, source }) => {
    const segments = FALLBACK_PART.test(source) ? null : routeSegments(source);
    return segments ? [{ key, segments, file: source.split('?')[0] }] : [];
  });
  const target = routes.find(({ segments }) => urlSegments(segments).join('/') === wanted.join('/'));
  if (!target) throw new Error(`No route file for ${urlPath} in the build.`);

  const routeChunks = routes
    .filter(({ segments }) => isPrefix(segments, target.segments))
    .map(({ key }) => key);
  // The catalogs the screen's route and its layouts load before it renders, read from their source
  // as `npm run i18n:check` reads them (scripts/catalog-reach.ts).
  const routeFiles = listRouteFiles(process.cwd(), ROUTES_DIR.slice(0, -1));
  const targetRoute = routeFiles.find(({ file }) => file === target.file);
  if (!targetRoute) throw new Error(`No route file ${target.file} in ${ROUTES_DIR}.`);
  const catalogParts = [...catalogsLoadedByRoute(process.cwd(), targetRoute, routeFiles)];
  const catalog = Object.keys(manifest).filter((key) =>
    catalogParts.some((part) => key.endsWith(`/locales/${DEFAULT_CONSOLE_LOCALE}/${part}.po`)),
  );

  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of [...routeChunks, ...catalog]) visit(key);
  return seen;
}

/** The scripts index.html loads at once: the entry and what it preloads. */
function scriptsOfIndexHtml(outDir: string): string[] {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  return tags
    .filter((tag) => /type="module"|rel="modulepreload"/.test(tag))
    .flatMap((tag) => /(?:src|href)="[^"]*?\/(assets\/[^"]+\.js)"/.exec(tag)?.[1] ?? []);
}

/**
 * The brotli bytes of a file as served: the build's precompressed copy, or the file itself when the
 * build left it as it is (too small to gain), since then that is what travels.
 */
function brotliBytesOf(outDir: string, file: string): number {
  const full = path.join(outDir, file);
  try {
    return readFileSync(`${full}.br`).length;
  } catch {
    return readFileSync(full).length;
  }
}

/**
 * index.html as it travels: every first screen's page, which carries the entry's stylesheet and the
 * sign-in preview with its script (docs/decisions/029-sign-in-preview.md).
 */
export function pageSize(outDir: string): ScreenFile {
  return {
    file: 'index.html',
    gzipBytes: gzipSync(readFileSync(path.join(outDir, 'index.html'))).length,
    brotliBytes: brotliBytesOf(outDir, 'index.html'),
  };
}

/**
 * A screen's scripts: index.html's own and, for a screen the router draws (`urlPath`), the chunks of
 * its routes with the router's. Without `urlPath`, a screen the entry draws before the router loads:
 * the sign-in page at the start of a visit (docs/decisions/030-sign-in-without-the-router.md).
 */
export function screenSize(outDir: string, screen: string, urlPath?: string): ScreenSize {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const routed = urlPath === undefined ? [] : [...chunksFor(outDir, manifest, urlPath)];
  const onDemand = routed.map((key) => manifest[key]?.file ?? '');
  const names = new Set([...scriptsOfIndexHtml(outDir), ...onDemand].filter((file) => file.endsWith('.js')));
  const files = [...names].map((file) => ({
    file,
    gzipBytes: gzipSync(readFileSync(path.join(outDir, file))).length,
    brotliBytes: brotliBytesOf(outDir, file),
  }));
  const total = (key: 'gzipBytes' | 'brotliBytes') => files.reduce((sum, file) => sum + file[key], 0);
  return { screen, files, gzipBytes: total('gzipBytes'), brotliBytes: total('brotliBytes') };
}
