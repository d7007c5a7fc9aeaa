import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importCycles, importGraph, readSources } from './import-graph.ts';
import {
  describeTierViolation,
  isRoutesModule,
  partGraph,
  queryLines,
  TIER_RULES,
  tierViolations,
} from './server-tiers.ts';

/**
 * The server's imports against its tiers (decision 016 §2). A failure names the importing file, the
 * imported one and the rule; the cure is to move what both need to a floor below them, or to reach
 * the other domain through its `index.ts`, not to add an exception here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = readSources(root, ['server']);
const edges = importGraph(sources);

function edge(from: string, to: string, typeOnly = false): ImportEdge {
  return { from, to, kind: 'file', typeOnly };
}

const ruleNamed = (start: string) => TIER_RULES.filter((rule) => rule.name.startsWith(start));

describe("the server's tiers", () => {
  it.each(TIER_RULES.map((rule) => [rule.name, rule]))('keep the rule: %s', (_name, rule) => {
    expect(tierViolations(edges, [rule]).map(describeTierViolation)).toEqual([]);
  });

  it('keep their queries in repositories, out of the routes modules', () => {
    const routes = [...sources].filter(([path]) => isRoutesModule(path));
    expect(routes.length).toBeGreaterThan(20);
    const queries = routes.flatMap(([path, source]) => queryLines(source).map((line) => `${path}:${line}`));
    expect(queries.map((at) => `${at} builds a query; move it to the domain's repository`)).toEqual([]);
  });

  it('form no cycle between the server folders', () => {
    expect(importCycles(partGraph(edges)).map((cycle) => cycle.join(' → '))).toEqual([]);
  });
});

describe('the tier rules, on small graphs', () => {
  it('refuse a platform module that imports a domain, even for a type', () => {
    const rules = ruleNamed('the platform imports no domain');
    expect(tierViolations([edge('server/http/headers.ts', 'server/ca/urls.ts')], rules)).toHaveLength(1);
    expect(tierViolations([edge('server/audit/log.ts', 'server/users/index.ts', true)], rules)).toHaveLength(
      1,
    );
    expect(tierViolations([edge('server/users/list.ts', 'server/http/errors.ts')], rules)).toEqual([]);
  });

  it('refuse a floor that imports a floor above it at run time', () => {
    const rules = ruleNamed('a platform floor');
    expect(tierViolations([edge('server/http/x.ts', 'server/identity/authenticate.ts')], rules)).toHaveLength(
      1,
    );
    expect(tierViolations([edge('server/identity/x.ts', 'server/http/errors.ts')], rules)).toEqual([]);
    // The request's shapes are read on every floor.
    expect(
      tierViolations([edge('server/http/app-env.ts', 'server/identity/principal.ts', true)], rules),
    ).toEqual([]);
  });

  it("refuse a domain that reaches past another domain's face", () => {
    const rules = ruleNamed('a domain imports another domain');
    expect(tierViolations([edge('server/users/lifecycle.ts', 'server/ca/revoke.ts')], rules)).toHaveLength(1);
    expect(tierViolations([edge('server/users/lifecycle.ts', 'server/ca/index.ts')], rules)).toEqual([]);
    expect(tierViolations([edge('server/users/lifecycle.ts', 'server/users/repository.ts')], rules)).toEqual(
      [],
    );
    // The app assembles the domains: it mounts their routes.
    expect(tierViolations([edge('server/app.ts', 'server/users/routes.ts')], rules)).toEqual([]);
  });

  it('refuse a routes module that imports another', () => {
    const rules = ruleNamed('no routes module');
    expect(
      tierViolations([edge('server/users/routes.ts', 'server/bulk-import/routes.ts')], rules),
    ).toHaveLength(1);
    expect(tierViolations([edge('server/users/routes.ts', 'server/users/lifecycle.ts')], rules)).toEqual([]);
  });

  it('find the queries a routes module builds, and know a routes module by its name', () => {
    const source =
      "const a = 1;\nconst row = await db\n  .selectFrom('users')\n  .execute();\nawait sql`select 1`.execute(db);\n";
    expect(queryLines(source)).toEqual([3, 5]);
    expect(queryLines('const selectFrom = 1;\n')).toEqual([]);
    expect(
      ['server/users/routes.ts', 'server/enrollments/enrollee-routes.ts', 'server/users/list.ts'].map(
        isRoutesModule,
      ),
    ).toEqual([true, true, false]);
  });

  it('find a cycle between folders made of different files, and none through a type', () => {
    const cycle = [
      edge('server/users/a.ts', 'server/roles/index.ts'),
      edge('server/roles/b.ts', 'server/users/index.ts'),
    ];
    expect(importCycles(partGraph(cycle))).toEqual([['server/roles', 'server/users', 'server/roles']]);
    const typed = [cycle[0] as ImportEdge, edge('server/roles/b.ts', 'server/users/index.ts', true)];
    expect(importCycles(partGraph(typed))).toEqual([]);
  });
});
