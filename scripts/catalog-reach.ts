import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importGraph, readSources } from '../tests/architecture/import-graph.ts';

/**
 * Whether every screen has its words loaded (docs/decisions/028-catalogs-by-area.md). A message
 * drawn while its catalog is not loaded shows its id, and nothing else notices: so for every route
 * file, the modules it reaches through imports must have their messages in a catalog the route or
 * one of its parents loads. What a route loads is read from its source: `loadAreaCatalog('name')`
 * calls; the `public` catalog is loaded before the first render (`activateLocale`, main.tsx) and
 * counts for every route.
 */

/** Loaded before any route renders: `activateLocale` loads it with the language. */
export const ALWAYS_LOADED_CATALOG = 'public';

const MODULE_EXTENSION = /\.tsx?$/;
const CATALOG_LOAD = /loadAreaCatalog\(\s*['"]([\w-]+)['"]\s*\)/g;

export interface RouteFile {
  /** Relative to the project, with `/`. */
  file: string;
  /** The route's position, as in bench/bundle-size.ts: `_secure/access/index.tsx` → ['_secure', 'access']. */
  segments: string[];
  isIndex: boolean;
}

export function listRouteFiles(root: string, routesDir: string): RouteFile[] {
  const files = readdirSync(path.join(root, routesDir), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => MODULE_EXTENSION.test(file) && !file.split('/').some((part) => part.startsWith('-')));
  return files.map((file) => {
    const parts = file.replace(MODULE_EXTENSION, '').split(/[/.]/);
    const last = parts.at(-1);
    return {
      file: `${routesDir}/${file}`,
      segments: parts.filter((part) => part !== '__root' && part !== 'index' && part !== 'route'),
      isIndex: last === 'index',
    };
  });
}

/** The layouts above a route: the root, then every non-index route whose position starts its own. */
export function parentsOf(route: RouteFile, routes: RouteFile[]): RouteFile[] {
  return routes.filter(
    (candidate) =>
      candidate !== route &&
      !candidate.isIndex &&
      candidate.segments.length <= route.segments.length &&
      candidate.segments.every((segment, index) => route.segments[index] === segment),
  );
}

/** What each module of `src` imports at run time (type-only imports are erased), by Vite's parser. */
function runtimeImports(root: string): Map<string, string[]> {
  const sources = readSources(root, ['src']);
  const next = new Map<string, string[]>();
  for (const edge of importGraph(sources)) {
    if (edge.kind !== 'file' || edge.typeOnly || !sources.has(edge.to)) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  return next;
}

/**
 * The modules a file reaches through its imports, static and dynamic alike: a dialog or panel
 * imported on first use still draws inside the screen that imports it. The walk stops at other
 * route files (each is checked as a route of its own) and at the generated route tree.
 */
function reachedModules(
  imports: ReadonlyMap<string, string[]>,
  start: string,
  isBoundary: (file: string) => boolean,
): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!isBoundary(target)) visit(target);
    }
  };
  visit(start);
  return reached;
}

function catalogsLoadedBy(root: string, file: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  return [...source.matchAll(CATALOG_LOAD)].flatMap(([, name]) => (name ? [name] : []));
}

/** The catalogs loaded before a route renders: `public`, and those it and its layouts ask for. */
export function catalogsLoadedByRoute(root: string, route: RouteFile, routes: RouteFile[]): Set<string> {
  return new Set([
    ALWAYS_LOADED_CATALOG,
    ...[route, ...parentsOf(route, routes)].flatMap((file) => catalogsLoadedBy(root, file.file)),
  ]);
}

/**
 * Every problem as a sentence: a module with messages reached by a route whose loaded catalogs do
 * not hold them. Both inputs are what Lingui's extraction wrote, not a guess from the source:
 * `modulesWithMessages` the origins of every message of src/ (a catalog of them all), and
 * `catalogsOfModule` the catalogs whose messages name the module among their origins.
 */
export function catalogReachProblems(options: {
  root: string;
  routesDir: string;
  /** Modules drawn before the router renders any route (main.tsx): they have the public catalog only. */
  entries: string[];
  modulesWithMessages: ReadonlySet<string>;
  catalogsOfModule: ReadonlyMap<string, ReadonlySet<string>>;
}): string[] {
  const { root, routesDir, entries, modulesWithMessages, catalogsOfModule } = options;
  const routes = listRouteFiles(root, routesDir);
  const routeFiles = new Set(routes.map(({ file }) => file));
  const imports = runtimeImports(root);
  const isBoundary = (file: string) => routeFiles.has(file) || file.endsWith('.gen.ts');
  const problems: string[] = [];
  const checkRoot = (start: string, loaded: Set<string>) => {
    for (const module of reachedModules(imports, start, isBoundary)) {
      if (!modulesWithMessages.has(module)) continue;
      const catalogs = catalogsOfModule.get(module) ?? new Set<string>();
      if ([...catalogs].some((catalog) => loaded.has(catalog))) continue;
      problems.push(
        `${start} draws ${module}, whose messages are in ${[...catalogs].join(', ') || 'no catalog'}, ` +
          `but loads only ${[...loaded].join(', ')}`,
      );
    }
  };
  for (const entry of entries) checkRoot(entry, new Set([ALWAYS_LOADED_CATALOG]));
  for (const route of routes) checkRoot(route.file, catalogsLoadedByRoute(root, route, routes));
  return problems;
}
