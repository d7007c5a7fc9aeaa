import type { Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  ACCOUNT_API_V1,
  apiPaths,
  CA_API_V1,
  IDENTITY_API_V1,
  UI_API_V1,
  UI_API_V2,
} from '../../contract/paths.ts';
import { API_TOKEN_PREFIX } from '../../contract/schemas/api-tokens.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  answerSchema,
  documentedErrorSchema,
  errorAnswer,
  STATUS_TEXT,
  TAGS,
} from '../http/describe-operation.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_REPLAYED_HEADER,
  isIdempotencyExempt,
} from '../http/idempotency.ts';

export type OpenApiDocument = OpenAPIV3_1.Document;

/**
 * The public API, for scripts and integrations: the paths the platform keeps stable. Everything else
 * (the console's own `ui-api`, the sign-in service) is the console API, described in a document of
 * its own and free to change with the console (decision 034).
 */
const PUBLIC_PREFIXES = [`${ACCOUNT_API_V1}/`, `${CA_API_V1}/`];

export function isPublicApiPath(path: string): boolean {
  return PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

const ERROR_DESCRIPTION =
  'Every error answer. `field` is the dot path of the request value at fault (`service_period.to`) or the name of the header (`If-Match`, `Idempotency-Key`); `code` is stable for clients to act on: a validation rule of the field (`required`, `invalidEmail`, `endDateNotInFuture` …) or the kind of failure (`inUse`, `conflict`, `notFound`, `forbidden`, `preconditionFailed`, `preconditionRequired`, `unsupportedMediaType`, `tooLarge`, `malformed`, `throttled`, `sessionRequired`, `ownUserOnly`, `userExceedsYours`, `limitReached`). `message` is English text for people reading the raw answer; clients never parse it.';

const BEARER = {
  type: 'http',
  scheme: 'bearer',
  description: `An API token (\`${API_TOKEN_PREFIX}\` and 43 base64url characters), or a signed-in session's access token (a JWT).`,
} as const;

/** 409 of a request sent with an Idempotency-Key, besides what the operation itself may answer. */
const IDEMPOTENT_CONFLICT = `${STATUS_TEXT[409]} With ${IDEMPOTENCY_KEY_HEADER}: the first request with this key is still being processed (Retry-After: 1), or, without Retry-After, its outcome is unknown and the object must be checked before the change is sent again under a new key.`;

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `A Structured Field string (a UUID in quotes, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters) naming this change; draft-ietf-httpapi-idempotency-key-header. The answer is stored for 24 hours per caller and key, and a request sent again with the same key gets it again, marked ${IDEMPOTENCY_REPLAYED_HEADER}: true, without the change being made twice. 401, 403, 429 and 5xx answers are not stored.`,
  schema: { type: 'string', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH + 2 },
} satisfies OpenAPIV3_1.ParameterObject;

const REPLAYED_HEADER = {
  description: `"true" when this answer was stored for an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}.`,
  schema: { type: 'string', enum: ['true'] },
} satisfies OpenAPIV3_1.HeaderObject;

const MUTATING_METHODS = new Set(['post', 'put', 'delete']);

/** Whether the operation takes an Idempotency-Key: every mutating one whose answer carries no credentials. */
export function takesIdempotencyKey(method: string, path: string): boolean {
  return MUTATING_METHODS.has(method) && !isIdempotencyExempt(path);
}

type Operation = OpenAPIV3_1.OperationObject;

/**
 * What the idempotency middleware adds to every mutating operation, and the security of the public
 * ones: written here once, from the same `isIdempotencyExempt` the middleware asks, rather than on
 * every route.
 */
function completeOperation(method: string, path: string, operation: Operation): void {
  operation.security ??= [];
  if (!takesIdempotencyKey(method, path)) return;
  operation.parameters = [IDEMPOTENCY_KEY_PARAMETER, ...(operation.parameters ?? [])];
  const responses = (operation.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>;
  operation.responses = responses;
  const success = Object.keys(responses).sort()[0];
  const answer = success === undefined ? undefined : responses[success];
  if (answer) answer.headers = { ...answer.headers, [IDEMPOTENCY_REPLAYED_HEADER]: REPLAYED_HEADER };
  responses[400] ??= errorAnswer(400);
  responses[409] = { ...errorAnswer(409), description: IDEMPOTENT_CONFLICT };
  responses[422] = errorAnswer(422);
}

/**
 * Hono names a parameter followed by an extension after the whole segment (`/crl/:id.crl` has
 * `id.crl`), and hono-openapi writes it so: `{id.crl}`. The document names the id alone,
 * `{id}.crl`, as a client builds the address.
 */
const PARAMETER_WITH_EXTENSION = /\{(\w+)\.(\w+)\}/g;

function withExtensionsApart(
  path: string,
  item: OpenAPIV3_1.PathItemObject,
): [string, OpenAPIV3_1.PathItemObject] {
  const names = new Map(
    [...path.matchAll(PARAMETER_WITH_EXTENSION)].map(([whole, name]) => [whole.slice(1, -1), name]),
  );
  for (const operation of Object.values(item) as Operation[]) {
    for (const parameter of (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
      parameter.name = names.get(parameter.name) ?? parameter.name;
    }
  }
  return [path.replace(PARAMETER_WITH_EXTENSION, '{$1}.$2'), item];
}

function pathsOf(all: OpenAPIV3_1.PathsObject, keep: (path: string) => boolean): OpenAPIV3_1.PathsObject {
  return Object.fromEntries(Object.entries(all).filter(([path]) => keep(path)));
}

function usedTags(paths: OpenAPIV3_1.PathsObject): OpenAPIV3_1.TagObject[] {
  const used = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item ?? {}).flatMap((operation) => (operation as Operation).tags ?? []),
    ),
  );
  return TAGS.filter((tag) => used.has(tag)).map((name) => ({ name }));
}

function publicIntroduction(publicUrl: string): string {
  return `The platform's public API: its certificate authority (\`${CA_API_V1}\`) and account services (\`${ACCOUNT_API_V1}\`). These paths are kept stable for scripts and integrations. The console's own API (\`${UI_API_V1}\`, \`${UI_API_V2}\`, \`${IDENTITY_API_V1}\`) is described apart, under **Console API (internal)** in the document list: it serves the console's screens and changes with them.

## Make a first call with an API token

1. Sign in to the console at ${publicUrl}/account and open **Access › Administrators**, then your own entry (\`/account/access/administrators/<your user id>\`). An API token is made by its own user, in a signed-in session.
2. Under **API tokens**, choose **Create API token**, give it a name and, if you like, an end date. The token (\`${API_TOKEN_PREFIX}\` and 43 characters) is shown this once: copy it into your secret store. For an integration that should not act as a person, an administrator makes a service user (**Access › Service users**) and its tokens instead.
3. Send it as a bearer token. It acts with your permissions and reach, and is logged under your name:

\`\`\`sh
export TOKEN='${API_TOKEN_PREFIX}…'
curl -sS -H "Authorization: Bearer $TOKEN" '${publicUrl}${apiPaths.certificates.list}?limit=5'
\`\`\`

The answer is a page of the certificates your accounts hold, \`{ "items": [ … ], "total": … }\`. Without a valid token the same call answers 401:

\`\`\`json
{ "error": { "status": 401, "message": "Authentication required." } }
\`\`\`

Every error answer has that one shape, \`{ error: { status, message, field?, code? } }\`: \`field\` names the request value or header at fault and \`code\` is stable for programs to act on (see the \`Error\` schema). A revoked or expired token, or one whose user is disabled, is refused from its next call.

Changes (\`POST\`, \`PUT\`, \`DELETE\`) take an \`Idempotency-Key\` header so that a request sent again after a lost answer is not applied twice, and the edits that carry a version take \`If-Match\` with the \`ETag\` the object was read with.`;
}

const CONSOLE_INTRODUCTION = `The console's own API: what its screens call, under \`${UI_API_V1}\`, \`${UI_API_V2}\` and the sign-in service \`${IDENTITY_API_V1}\`. It is described so that nothing the server answers is undocumented, but it is internal: it changes with the console, without notice. Scripts and integrations use the **public API** (the other document in the list). API tokens are accepted here too, with the same permissions, except by the calls that make or guard credentials (sign-out, the storage secret, passwords, API tokens), which need a signed-in session (403 \`sessionRequired\`).`;

/**
 * The two OpenAPI 3.1 documents of the platform, generated from the application's own routes: the
 * description each route carries, the validators it runs and `requireAuth` (hono-openapi reads them
 * from `app.routes`). Built once, when first asked for.
 */
export async function buildOpenApiDocuments(
  app: Hono<AppEnv>,
  publicUrl: string,
): Promise<{ public: OpenApiDocument; console: OpenApiDocument }> {
  const error = await answerSchema(documentedErrorSchema).toOpenAPISchema();
  const generated = await generateSpecs(app, {
    excludeStaticFile: false,
    defaultValidationErrorResponse: errorAnswer(400),
  });
  const allPaths = Object.fromEntries(
    Object.entries(generated.paths ?? {}).map(([path, item]) => withExtensionsApart(path, item ?? {})),
  );
  for (const [path, item] of Object.entries(allPaths)) {
    for (const [method, operation] of Object.entries(item)) {
      completeOperation(method, path, operation as Operation);
    }
  }
  const components: OpenAPIV3_1.ComponentsObject = {
    schemas: { Error: { ...error.schema, description: ERROR_DESCRIPTION } },
    securitySchemes: { bearer: BEARER },
  };
  const documentOf = (title: string, description: string, keep: (path: string) => boolean) => {
    const paths = pathsOf(allPaths, keep);
    return {
      openapi: '3.1.0',
      info: { title, version: '1', description },
      servers: [{ url: publicUrl }],
      tags: usedTags(paths),
      paths,
      components,
    } satisfies OpenApiDocument;
  };
  return {
    public: documentOf('Trust platform API', publicIntroduction(publicUrl), isPublicApiPath),
    console: documentOf(
      'Trust console API (internal)',
      CONSOLE_INTRODUCTION,
      (path) => !isPublicApiPath(path),
    ),
  };
}
