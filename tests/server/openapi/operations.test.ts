import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, isApiPath } from '../../../contract/paths.ts';
import { buildOpenApiDocument, OPERATIONS } from '../../../server/openapi/document.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});

afterAll(async () => {
  await harness.close();
});

/** The document's own page for people and its stylesheet: served under the API path, but no API call. */
const REFERENCE_PAGES = new Set([apiPaths.apiReference, `${apiPaths.apiReference}.css`]);

/** `get /account/ui-api/v1/organizations/{id}`: a Hono route as the OpenAPI document writes it. */
function operationOf(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`;
}

describe('the OpenAPI document', () => {
  /**
   * Every route the application answers under an API base path, once per method and path: Hono lists
   * a route once per handler, and middleware registered with `use` under the method `ALL`.
   */
  function servedOperations(): Set<string> {
    return new Set(
      harness.app.routes
        .filter(
          (route) => route.method !== 'ALL' && isApiPath(route.path) && !REFERENCE_PAGES.has(route.path),
        )
        .map((route) => operationOf(route.method, route.path)),
    );
  }

  const documented = new Set(OPERATIONS.map((operation) => `${operation.method} ${operation.path}`));

  it('describes every route the application serves under the API paths', () => {
    expect([...servedOperations()].filter((operation) => !documented.has(operation))).toEqual([]);
  });

  it('describes no operation the application does not serve', () => {
    const served = servedOperations();
    expect([...documented].filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('lists each operation once', () => {
    expect(documented.size).toBe(OPERATIONS.length);
  });
});

describe('the error body in the OpenAPI document', () => {
  it('shows the field at fault and the stable codes beside the message', () => {
    const document = buildOpenApiDocument() as {
      components: { schemas: { Error: { properties: { error: { properties: Record<string, unknown> } } } } };
    };
    const error = document.components.schemas.Error.properties.error.properties;
    expect(error.field).toEqual({ type: 'string' });
    expect(error.code).toEqual({
      enum: expect.arrayContaining(['endDateNotInFuture', 'inUse', 'preconditionFailed']),
    });
  });
});
