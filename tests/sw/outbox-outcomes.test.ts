import { describe, expect, it } from 'vitest';
import { OUTBOX_QUOTA_STATUS } from '../../contract/outbox.ts';
import {
  currentFromAnswer,
  GONE_MESSAGE,
  type ReplayOutcome,
  refusalMessage,
  replayOutcome,
  WORKER_REFUSALS,
} from '../../sw/outbox/outcomes.ts';

const NOW = Date.parse('2026-03-02T09:00:00Z');

/** The replay table of docs/decisions/013-offline-console.md, one row per kind of answer. */
const rows: Array<[string, { status: number; retryAfter: string | null } | null, ReplayOutcome]> = [
  ['200', { status: 200, retryAfter: null }, { entry: 'remove', replay: 'next' }],
  ['201', { status: 201, retryAfter: null }, { entry: 'remove', replay: 'next' }],
  ['204', { status: 204, retryAfter: null }, { entry: 'remove', replay: 'next' }],
  ['401', { status: 401, retryAfter: null }, { entry: 'hold', replay: 'stop' }],
  ['412', { status: 412, retryAfter: null }, { entry: 'conflict', current: 'from-answer', replay: 'next' }],
  ['409', { status: 409, retryAfter: null }, { entry: 'conflict', current: 'from-resource', replay: 'next' }],
  [
    '409 with Retry-After in seconds',
    { status: 409, retryAfter: '3' },
    { entry: 'retry', atLeastMs: 3_000, replay: 'stop' },
  ],
  [
    '409 with Retry-After as a date',
    { status: 409, retryAfter: new Date(NOW + 10_000).toUTCString() },
    { entry: 'retry', atLeastMs: 10_000, replay: 'stop' },
  ],
  ['404', { status: 404, retryAfter: null }, { entry: 'failed', message: GONE_MESSAGE, replay: 'next' }],
  ['400', { status: 400, retryAfter: null }, { entry: 'failed', message: null, replay: 'next' }],
  ['403', { status: 403, retryAfter: null }, { entry: 'failed', message: null, replay: 'next' }],
  ['422', { status: 422, retryAfter: null }, { entry: 'failed', message: null, replay: 'next' }],
  ['428', { status: 428, retryAfter: null }, { entry: 'failed', message: null, replay: 'next' }],
  ['a redirect', { status: 302, retryAfter: null }, { entry: 'failed', message: null, replay: 'next' }],
  ['500', { status: 500, retryAfter: null }, { entry: 'retry', atLeastMs: null, replay: 'stop' }],
  [
    '503 with Retry-After',
    { status: 503, retryAfter: '120' },
    { entry: 'retry', atLeastMs: 120_000, replay: 'stop' },
  ],
  [
    '507 from the server',
    { status: OUTBOX_QUOTA_STATUS, retryAfter: null },
    { entry: 'retry', atLeastMs: null, replay: 'stop' },
  ],
  [
    'an unreadable Retry-After',
    { status: 502, retryAfter: 'soon' },
    { entry: 'retry', atLeastMs: null, replay: 'stop' },
  ],
  ['no answer (network error)', null, { entry: 'retry', atLeastMs: null, replay: 'stop' }],
];

describe('what an answer to a replayed entry makes of it', () => {
  it.each(rows)('%s', (_answer, answer, outcome) => {
    expect(replayOutcome(answer, NOW)).toEqual(outcome);
  });
});

describe('the message a refused entry keeps', () => {
  it.each([
    ['the server message', { error: { status: 422, message: 'The name is taken.' } }, 'The name is taken.'],
    [
      'a sentence naming the status for an empty message',
      { error: { message: '' } },
      'The server refused this change (HTTP 422).',
    ],
    [
      'a sentence naming the status for a body without error',
      { name: 'x' },
      'The server refused this change (HTTP 422).',
    ],
    ['a sentence naming the status without a body', null, 'The server refused this change (HTTP 422).'],
    [
      'a sentence naming the status for a message that is not text',
      { error: { message: 42 } },
      'The server refused this change (HTTP 422).',
    ],
  ])('is %s', (_case, body, message) => {
    expect(refusalMessage(422, body)).toBe(message);
  });
});

describe('the current version a 412 brings', () => {
  it.each([
    ['body and ETag', { current: { name: 'Acme' } }, '"v2"', { value: { name: 'Acme' }, etag: '"v2"' }],
    ['the body alone', { current: { name: 'Acme' } }, null, { value: { name: 'Acme' }, etag: null }],
    ['the ETag alone', { error: { status: 412 } }, '"v2"', { value: null, etag: '"v2"' }],
    ['neither', { error: { status: 412 } }, null, null],
    ['no body, no ETag', null, null, null],
  ])('from %s', (_case, body, etag, current) => {
    expect(currentFromAnswer(body, etag)).toEqual(current);
  });
});

describe("the worker's own answers, when it neither sends nor keeps a change", () => {
  it.each([
    ['noOwner', 400],
    ['otherUser', 403],
    ['signInAgain', 401],
    ['noRoom', OUTBOX_QUOTA_STATUS],
    ['workerFailure', 503],
  ] as const)('%s is %i with a sentence of its own', (reason, status) => {
    expect(WORKER_REFUSALS[reason].status).toBe(status);
    expect(WORKER_REFUSALS[reason].message).toMatch(/^[A-Z].+\.$/);
  });
});
