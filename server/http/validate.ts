import type { Context, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { validator } from 'hono/validator';
import * as v from 'valibot';
import type { ValidationCode } from '../../contract/validation.ts';
import { describeFieldIssue, firstIssue } from '../../contract/validation-text.ts';
import { ApiError } from './errors.ts';

/** Largest request body the API reads; a licence text, the largest legitimate one, is far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The 400 of a value that passed its schema but broke a rule the schema cannot hold, such as an end
 * date against today: named like a schema's own 400.
 */
export function invalidField(field: string, code: ValidationCode): ApiError {
  return new ApiError(400, describeFieldIssue(field, code), { field, code });
}

/**
 * A NUL character, or half of a UTF-16 surrogate pair: text no database column can hold (PostgreSQL
 * refuses both) and no person typed. Whatever a field's own rules, such a value is refused first.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/**
 * The dot path of a string in `value` that holds unstorable text, or null. Walked with a list of its
 * own, not by recursion: a body nested a hundred thousand levels deep must not overflow the stack.
 */
function unstorableTextAt(value: unknown): string | null {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (isUnstorable(item)) return path;
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        // An unstorable key is as bad as an unstorable value: name its parent.
        if (isUnstorable(key)) return path;
        pending.push([child, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

export function parseWith<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
): v.InferOutput<TSchema> {
  const unstorable = unstorableTextAt(value);
  if (unstorable !== null) throw invalidField(unstorable || 'request', 'invalidValue');
  const result = v.safeParse(schema, value);
  if (!result.success) {
    const { field, code, message } = firstIssue(result.issues);
    throw new ApiError(400, message, { field, code });
  }
  return result.output;
}

/**
 * Validates a JSON request body against a contract schema; the handler reads it with
 * `c.req.valid('json')`. A body in another media type is refused (415) rather than ignored, so a
 * form post cannot slip through as an empty object.
 */
export function validateJson<TSchema extends v.GenericSchema>(schema: TSchema) {
  const validate = validator('json', (value: unknown) => parseWith(schema, value));
  const guarded: typeof validate = async (c, next) => {
    const mediaType = c.req.header('Content-Type')?.split(';')[0]?.trim() ?? '';
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ApiError(415, 'Request body must be JSON (Content-Type: application/json).');
    }
    try {
      // Parsed once here; Hono's validator reads the same cached result.
      await c.req.json();
    } catch {
      throw new ApiError(400, 'Request body is not valid JSON.', { code: 'malformed' });
    }
    return validate(c, next);
  };
  return guarded;
}

/** Validates the query string; the handler reads it with `c.req.valid('query')`. */
export function validateQuery<TSchema extends v.GenericSchema>(schema: TSchema) {
  return validator('query', (value: unknown) => parseWith(schema, value));
}

/** Validates path parameters; the handler reads them with `c.req.valid('param')`. */
export function validateParams<TSchema extends v.GenericSchema>(schema: TSchema) {
  return validator('param', (value: unknown) => parseWith(schema, value));
}

function bodyLimitOf(maxSize: number, words: string) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, `Request body is larger than ${words}.`);
    },
  });
}

/** Answers 413 before a handler reads more than `MAX_BODY_BYTES` of a body. */
export const limitBodySize = bodyLimitOf(MAX_BODY_BYTES, '1 MiB');

/**
 * The body limit of one path: `MAX_BODY_BYTES` everywhere but the paths given a larger one (the bulk
 * user file, decision 038).
 */
export function limitBodySizeByPath(
  larger: Readonly<Record<string, { bytes: number; words: string }>>,
  /**
   * Paths with ids given a limit of their own, by the request's media type (the client-auth
   * certificate upload: 4 KB for the raw file, decision 019); the first that matches decides.
   */
  patterns: readonly {
    path: RegExp;
    limit: (mediaType: string) => { bytes: number; words: string };
  }[] = [],
) {
  const limits = new Map(
    Object.entries(larger).map(([path, { bytes, words }]) => [path, bodyLimitOf(bytes, words)]),
  );
  return (c: Context, next: Next) => {
    const exact = limits.get(c.req.path);
    if (exact) return exact(c, next);
    const pattern = patterns.find(({ path }) => path.test(c.req.path));
    if (!pattern) return limitBodySize(c, next);
    const mediaType = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    const { bytes, words } = pattern.limit(mediaType);
    return bodyLimitOf(bytes, words)(c, next);
  };
}
