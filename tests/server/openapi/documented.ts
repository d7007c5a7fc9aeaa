import type { Hono } from 'hono';
import type { OpenAPIV3_1 } from 'openapi-types';
import { apiPaths } from '../../../contract/paths.ts';
import type { AppEnv } from '../../../server/http/app-env.ts';
import { createTestApp } from '../test-app.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** One operation of the OpenAPI documents, as the sweeps over every operation need it. */
export interface DocumentedOperation {
  method: Method;
  /** As the document writes it: `/account/ui-api/v1/organizations/{id}`. */
  path: string;
  /** The operation's answer when it succeeds: its lowest 2xx or 3xx status. */
  successStatus: number;
  /** The members of its JSON body, when that is an object. */
  bodyFields: string[];
  /** The names of its query parameters. */
  queryFields: string[];
  described: OpenAPIV3_1.OperationObject;
}

export interface Documents {
  public: OpenAPIV3_1.Document;
  console: OpenAPIV3_1.Document;
}

/** Both documents, as the application serves them. */
export async function servedDocuments(app: Hono<AppEnv>): Promise<Documents> {
  const read = async (path: string) => (await (await app.request(path)).json()) as OpenAPIV3_1.Document;
  return { public: await read(apiPaths.openApi), console: await read(apiPaths.consoleOpenApi) };
}

export function operationsOf(document: OpenAPIV3_1.Document): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, value]) => {
      const described = value as OpenAPIV3_1.OperationObject;
      const body = (described.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[
        'application/json'
      ]?.schema as OpenAPIV3_1.SchemaObject | undefined;
      const parameters = (described.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
      return {
        method: method as Method,
        path,
        successStatus: Math.min(
          ...Object.keys(described.responses ?? {})
            .map(Number)
            .filter((status) => status < 400),
        ),
        bodyFields: Object.keys(body?.properties ?? {}),
        queryFields: parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
        described,
      };
    }),
  );
}

/**
 * Every operation of both documents, read from an application of its own: for suites that make a
 * case of each before their own application exists.
 */
export async function documentedOperations(): Promise<DocumentedOperation[]> {
  const harness = await createTestApp();
  try {
    const documents = await servedDocuments(harness.app);
    return [...operationsOf(documents.public), ...operationsOf(documents.console)];
  } finally {
    await harness.close();
  }
}
