import type { MiddlewareHandler } from 'hono';
import { describeRoute, resolver, uniqueSymbol } from 'hono-openapi';
import * as v from 'valibot';
import { API_ERROR_CODES, apiErrorSchema } from '../../contract/schemas/common.ts';
import { VALIDATION_CODES } from '../../contract/validation.ts';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.ts';

/**
 * The domains of the platform API, in the order the reference lists them: every operation names one,
 * so the reference groups operations as the console groups its screens.
 */
export const TAGS = [
  'Sign-in',
  'Setup',
  'Profile',
  'Accounts',
  'Organizations',
  'Users',
  'Bulk user creation',
  'API tokens',
  'Service users',
  'Client-authentication certificates',
  'Roles',
  'Licence',
  'Licences per account',
  'Feature flags',
  'Audit log',
  'Certificate authority',
  'Certificates',
  'Certificate profiles',
  'Enrollment',
  'Client tools',
  'Reference',
] as const;
export type Tag = (typeof TAGS)[number];

/** The error answers an operation describes; 500 is added to every one. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 428 | 429;

/** What a route says about itself beside its validators, which describe its parameters and JSON body. */
export interface OperationDescription {
  tag: Tag;
  summary: string;
  success: {
    status: 200 | 201 | 202 | 204 | 302;
    description: string;
    schema?: v.GenericSchema;
    /** Answers the object's version in ETag. */
    etag?: boolean;
    /** The body is a file of this media type (a certificate, a CRL, a CSV export), not JSON. */
    binary?: string;
  };
  failures: readonly ErrorStatus[];
  /**
   * If-Match: `required` answers 428 without it (the edits the console may queue offline),
   * `optional` honours it when sent; both answer 412 with `current`, the object as its GET answers it.
   */
  ifMatch?: { required: boolean; current: v.GenericSchema };
  /** A body the route reads itself rather than through `validateJson`: its schema and media types. */
  body?: { description: string; json?: v.GenericSchema; media?: string };
}

/**
 * Contract schemas as JSON Schema, through valibot's own converter. Checks written as code (an end
 * date against today, a trimmed value) have no JSON Schema form and are left out: the document then
 * promises less than the server enforces, never more. Requests are described as they are sent, answers
 * as they are answered.
 */
export function requestSchema(schema: v.GenericSchema) {
  return resolver(schema, { options: { typeMode: 'ignore' } });
}

export function answerSchema(schema: v.GenericSchema) {
  return resolver(schema, { options: { typeMode: 'output' } });
}

export const STATUS_TEXT: Record<ErrorStatus | 412 | 500, string> = {
  400: 'The request is not valid; the message names the field or header.',
  401: 'Not signed in, or the token is no longer valid.',
  403: 'Not allowed.',
  404: 'Not found.',
  409: 'Conflicts with the current state.',
  410: 'Gone: the link has expired.',
  412: 'If-Match names a version that is no longer the current one; `current` is the object now, ETag its version.',
  413: 'Request body larger than 1 MiB.',
  415: 'Request body is not JSON.',
  422: `The ${IDEMPOTENCY_KEY_HEADER} was already used for a different request.`,
  428: 'If-Match is required: send the ETag the object was read with.',
  429: 'Too many attempts; see Retry-After.',
  500: 'Internal server error.',
};

/** Every code an error answer may carry: the contract's validation codes, then those of other failures. */
const ERROR_CODES = [...VALIDATION_CODES, ...API_ERROR_CODES];

/** The contract's error body with its codes listed, so a client generated from the document knows them. */
export const documentedErrorSchema = v.object({
  error: v.object({ ...apiErrorSchema.entries.error.entries, code: v.optional(v.picklist(ERROR_CODES)) }),
});

export const ERROR_REFERENCE = { $ref: '#/components/schemas/Error' };

/** An error answer of the one error body. */
export function errorAnswer(status: ErrorStatus | 500) {
  return {
    description: STATUS_TEXT[status],
    content: { 'application/json': { schema: ERROR_REFERENCE } },
  };
}

export const ETAG_HEADER = {
  ETag: {
    description: 'The version of the object, quoted: send it as If-Match to change it.',
    schema: { type: 'string' },
  },
} as const;

function ifMatchParameter(required: boolean) {
  return {
    name: 'If-Match',
    in: 'header' as const,
    required,
    description: required
      ? 'The ETag the object was read with (or `*`); without it the change answers 428, with an older one 412.'
      : 'The ETag the object was read with (or `*`); with an older one the change answers 412.',
    schema: { type: 'string' as const },
  };
}

function successAnswer({ description, schema, etag, binary }: OperationDescription['success']) {
  return {
    description,
    ...(etag ? { headers: ETAG_HEADER } : {}),
    ...(schema ? { content: { 'application/json': { schema: answerSchema(schema) } } } : {}),
    ...(binary ? { content: { [binary]: { schema: { type: 'string', format: 'binary' } } } } : {}),
  };
}

function preconditionAnswers({ required, current }: NonNullable<OperationDescription['ifMatch']>) {
  return {
    ...(required ? { 428: errorAnswer(428) } : {}),
    412: {
      description: STATUS_TEXT[412],
      headers: ETAG_HEADER,
      content: {
        'application/json': {
          schema: answerSchema(v.object({ ...documentedErrorSchema.entries, current })),
        },
      },
    },
  };
}

function requestBodyOf({ description, json, media }: NonNullable<OperationDescription['body']>) {
  return {
    required: true,
    description,
    content: {
      ...(json ? { 'application/json': { schema: requestSchema(json) } } : {}),
      ...(media ? { [media]: { schema: { type: 'string', format: 'binary' } } } : {}),
    },
  };
}

/**
 * The route's own description in the OpenAPI document, placed first among its handlers: its domain,
 * what it does, what it answers and how it fails. Parameters and JSON bodies come from the validators
 * the route runs, authentication from `requireAuth`, Idempotency-Key from the document (every
 * mutating operation but the exempt ones takes it).
 */
export function describeOperation(operation: OperationDescription): MiddlewareHandler {
  const { tag, summary, success, failures, ifMatch, body } = operation;
  return describeRoute({
    tags: [tag],
    summary,
    ...(ifMatch ? { parameters: [ifMatchParameter(ifMatch.required)] } : {}),
    ...(body ? { requestBody: requestBodyOf(body) } : {}),
    responses: {
      [success.status]: successAnswer(success),
      ...Object.fromEntries(
        [...failures, ...(ifMatch ? [400 as const] : []), 500 as const].map((status) => [
          status,
          errorAnswer(status),
        ]),
      ),
      ...(ifMatch ? preconditionAnswers(ifMatch) : {}),
    },
  });
}

/** Marks a validator with the part of the request it checks, so every route it guards describes it. */
export function describesInput(
  validator: object,
  target: 'json' | 'query' | 'param',
  schema: v.GenericSchema,
): void {
  Object.assign(validator, { [uniqueSymbol]: { target, ...requestSchema(schema) } });
}

/** Marks `requireAuth`: every route it guards needs the bearer token, and answers 401 without it. */
export function describesAuthentication<T extends MiddlewareHandler>(middleware: T): T {
  return Object.assign(middleware, {
    [uniqueSymbol]: { spec: { security: [{ bearer: [] }], responses: { 401: errorAnswer(401) } } },
  });
}
