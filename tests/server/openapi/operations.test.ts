import { findTargetHandler } from 'hono/utils/handler';
import { uniqueSymbol } from 'hono-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, isApiPath } from '../../../contract/paths.ts';
import { TAGS } from '../../../server/http/describe-operation.ts';
import { isPublicApiPath } from '../../../server/openapi/document.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type Documents, operationsOf, servedDocuments } from './documented.ts';

let harness: TestApp;
let documents: Documents;

beforeAll(async () => {
  harness = await createTestApp();
  documents = await servedDocuments(harness.app);
});

afterAll(async () => {
  await harness.close();
});

/** The reference page for people and its scripts: served under the API path, but no API call. */
const isReferencePage = (path: string) =>
  path === apiPaths.apiReference || path.startsWith(`${apiPaths.apiReference}/`);

/** `get /account/ui-api/v1/organizations/{id}`: a Hono route as the OpenAPI documents write it. */
function operationOf(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`;
}

/**
 * Every route the application answers under an API base path, with its handlers: Hono lists a route
 * once per handler, and middleware registered with `use` under the method `ALL`.
 */
function servedRoutes(): Map<string, unknown[]> {
  const served = new Map<string, unknown[]>();
  for (const route of harness.app.routes) {
    if (route.method === 'ALL' || !isApiPath(route.path) || isReferencePage(route.path)) continue;
    const operation = operationOf(route.method, route.path);
    served.set(operation, [...(served.get(operation) ?? []), findTargetHandler(route.handler)]);
  }
  return served;
}

function documented(): Map<string, { summary?: string; tags?: string[] }> {
  return new Map(
    [...operationsOf(documents.public), ...operationsOf(documents.console)].map((operation) => [
      `${operation.method} ${operation.path}`,
      operation.described,
    ]),
  );
}

describe('the OpenAPI documents', () => {
  it('describe every route the application serves under the API paths, with its summary and domain', () => {
    const described = documented();
    const tags: readonly string[] = TAGS;
    const undescribed = [...servedRoutes().keys()].filter((operation) => {
      const found = described.get(operation);
      return !found?.summary || found.tags?.length !== 1 || !tags.includes(found.tags[0] ?? '');
    });
    expect(undescribed).toEqual([]);
  });

  it('describe no operation the application does not serve', () => {
    const served = servedRoutes();
    expect([...documented().keys()].filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('take each operation from one description on its route', () => {
    const descriptions = (handlers: unknown[]) =>
      handlers.filter((handler) => {
        const mark = (handler as Record<symbol, { spec?: { summary?: string } } | undefined>)[uniqueSymbol];
        return mark?.spec?.summary !== undefined;
      }).length;
    const twice = [...servedRoutes()].filter(([, handlers]) => descriptions(handlers) !== 1);
    expect(twice.map(([operation]) => operation)).toEqual([]);
  });

  it('keep the public API apart from the console API', () => {
    const paths = (document: Documents['public']) => Object.keys(document.paths ?? {});
    expect(paths(documents.public).filter((path) => !isPublicApiPath(path))).toEqual([]);
    expect(paths(documents.console).filter(isPublicApiPath)).toEqual([]);
    expect(paths(documents.public)).toContain(apiPaths.certificates.list);
    expect(paths(documents.console)).toContain(apiPaths.users.list);
  });
});

describe('the error body in the OpenAPI documents', () => {
  it('shows the field at fault and the stable codes beside the message', () => {
    for (const document of [documents.public, documents.console]) {
      const schemas = document.components?.schemas as {
        Error: { properties: { error: { properties: Record<string, unknown> } } };
      };
      const error = schemas.Error.properties.error.properties;
      expect(error.field).toEqual({ type: 'string' });
      expect(error.code).toEqual({
        type: 'string',
        enum: expect.arrayContaining(['endDateNotInFuture', 'inUse', 'preconditionFailed']),
      });
    }
  });
});
