import type { ImportEdge } from './import-graph.ts';

/**
 * The server's tiers (docs/decisions/016-domain-shape.md, "Checklist: a domain in the server") as checks on its import graph: the
 * platform's floors, each importing only the floors below it; the domains on top, each reaching
 * another domain only through that domain's face (`index.ts`); no routes module importing another;
 * no cycle between the server's folders. A failure names both files and the rule.
 */

/**
 * The platform, bottom floor first: a floor imports its own modules and the floors below, never one
 * above, and never a domain. Type-only imports count for the domains (a type from a domain couples
 * as much as a function), not between floors: the shapes of the request (the principal on
 * `AppEnv`, the dependencies on `AppDeps`) are declared where they are made and read everywhere.
 */
export const PLATFORM_FLOORS: readonly (readonly string[])[] = [
  ['server/dates.ts', 'server/i18n', 'server/polling-loop.ts', 'server/sealed-box.ts', 'server/app-deps.ts'],
  ['server/http'],
  // Above HTTP: reading TRUST_PROXY takes the proxy-address parser (decision 031).
  ['server/config.ts'],
  ['server/db'],
  ['server/authorization'],
  ['server/identity'],
  ['server/audit'],
  ['server/resources'],
  ['server/mail'],
];

/** What assembles the program: it may import anything. */
const ASSEMBLY: ReadonlySet<string> = new Set(['server/app.ts', 'server/main.ts']);

/** The folder or top-level file of the server a path belongs to: `server/users`, `server/app.ts`. */
export function serverPartOf(path: string): string | null {
  const [top, part] = path.split('/');
  return top === 'server' && part !== undefined ? `server/${part}` : null;
}

function floorOf(part: string): number | null {
  const floor = PLATFORM_FLOORS.findIndex((parts) => parts.includes(part));
  return floor === -1 ? null : floor;
}

/** A domain: a folder of the server that is neither on a platform floor nor the assembly. */
function isDomain(part: string): boolean {
  return floorOf(part) === null && !ASSEMBLY.has(part);
}

/** The one module of a domain others may import: its face. */
export function isFace(path: string): boolean {
  return /^server\/[^/]+\/index\.ts$/.test(path);
}

export interface TierRule {
  name: string;
  breaks: (edge: ImportEdge) => boolean;
}

/** An import between two different parts of the server, with both parts. */
function between(edge: ImportEdge): { from: string; to: string } | null {
  if (edge.kind !== 'file') return null;
  const from = serverPartOf(edge.from);
  const to = serverPartOf(edge.to);
  return from === null || to === null || from === to ? null : { from, to };
}

export const TIER_RULES: readonly TierRule[] = [
  {
    name: 'the platform imports no domain',
    breaks: (edge) => {
      const parts = between(edge);
      return parts !== null && floorOf(parts.from) !== null && isDomain(parts.to);
    },
  },
  {
    name: 'a platform floor imports only the floors below it',
    breaks: (edge) => {
      const parts = between(edge);
      if (parts === null || edge.typeOnly) return false;
      const from = floorOf(parts.from);
      const to = floorOf(parts.to);
      return from !== null && to !== null && to > from;
    },
  },
  {
    name: "a domain imports another domain only through that domain's index.ts",
    breaks: (edge) => {
      const parts = between(edge);
      return parts !== null && isDomain(parts.from) && isDomain(parts.to) && !isFace(edge.to);
    },
  },
  {
    name: 'no routes module imports another routes module',
    breaks: ({ from, to, kind }) =>
      kind === 'file' && from !== to && /(^|\/)routes\.ts$/.test(from) && /(^|\/)routes\.ts$/.test(to),
  },
];

export interface TierViolation {
  rule: string;
  from: string;
  to: string;
}

export function tierViolations(
  edges: readonly ImportEdge[],
  rules: readonly TierRule[] = TIER_RULES,
): TierViolation[] {
  return rules.flatMap((rule) =>
    edges
      .filter((edge) => edge.from.startsWith('server/') && rule.breaks(edge))
      .map(({ from, to }) => ({ rule: rule.name, from, to })),
  );
}

export function describeTierViolation({ rule, from, to }: TierViolation): string {
  return `${from} imports ${to}, but ${rule}`;
}

/**
 * The import edges between the server's parts, one per pair of parts, as edges of a graph whose nodes
 * are the parts: fed to `importCycles`, it finds the cycles between folders (runtime imports only).
 */
export function partGraph(edges: readonly ImportEdge[]): ImportEdge[] {
  const seen = new Set<string>();
  const graph: ImportEdge[] = [];
  for (const edge of edges) {
    const parts = between(edge);
    if (parts === null || edge.typeOnly) continue;
    const key = `${parts.from} ${parts.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    graph.push({ from: parts.from, to: parts.to, kind: 'file', typeOnly: false });
  }
  return graph;
}

/** The routes modules of the server: `routes.ts`, and a domain's second one such as `enrollee-routes.ts`. */
export function isRoutesModule(path: string): boolean {
  return /^server\/[^/]+\/([a-z-]+-)?routes\.ts$/.test(path);
}

const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`/g;

/** The lines of `source` that build a query: a routes module leaves that to its repository. */
export function queryLines(source: string): number[] {
  return source.split('\n').flatMap((line, index) => (line.match(QUERY) === null ? [] : [index + 1]));
}
