import { apiPaths } from '../../contract/paths.ts';
import { type TokenResponse, tokenResponseSchema } from '../../contract/schemas/identity.ts';
import { clearAccessToken, getAccessToken, setAccessToken } from './access-token.ts';
import { apiRequest } from './api-client.ts';

/** setTimeout cannot wait longer than 2^31-1 ms; a later expiry is re-checked when that fires. */
const LONGEST_TIMER_MS = 2_147_483_647;

let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let refreshInFlight: Promise<boolean> | null = null;

type SessionListener = () => void;
let onEnded: SessionListener | null = null;
let onLost: SessionListener | null = null;

/**
 * `ended` runs when the session is over and should drop every cached server answer; `lost` runs when
 * a scheduled refresh failed, without the user asking, and should lead to sign-in.
 */
export function configureSession(listeners: { ended: SessionListener; lost: SessionListener }): void {
  onEnded = listeners.ended;
  onLost = listeners.lost;
}

function cancelRefresh(): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  refreshTimer = null;
}

/** One timer, set for the moment the token expires (B-22); every new token replaces it. */
function scheduleRefresh(expiresAt: number): void {
  cancelRefresh();
  const delay = Math.min(LONGEST_TIMER_MS, Math.max(0, expiresAt - Date.now()));
  refreshTimer = setTimeout(() => {
    void refreshSession().then((renewed) => {
      if (!renewed) onLost?.();
    });
  }, delay);
}

/** Keeps the token of a successful sign-in or refresh (B-19) and plans its renewal. */
export function startSession(tokens: TokenResponse): void {
  const expiresAt = Date.parse(tokens.expires_at);
  setAccessToken(tokens.access_token, expiresAt);
  scheduleRefresh(expiresAt);
}

/** Stops using the token at once; the cached data goes with `endSession` once the screen has left. */
export function forgetToken(): void {
  cancelRefresh();
  clearAccessToken();
}

/** Drops the token, the timer and (through `ended`) all client state (B-25). */
export function endSession(): void {
  forgetToken();
  onEnded?.();
}

const REFRESH_LOCK = 'trust-console.refresh';

function exchangeRefreshCookie() {
  return apiRequest('POST', apiPaths.identity.refresh, {
    body: {},
    schema: tokenResponseSchema,
    sessionCheck: false,
  });
}

function exchangeInTurn() {
  return typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request(REFRESH_LOCK, exchangeRefreshCookie)
    : exchangeRefreshCookie();
}

/**
 * Exchanges the HttpOnly refresh cookie for a new access token. The server treats a reused refresh
 * token as theft, so two exchanges must never race: callers in this tab share one request, and tabs
 * take turns through a Web Lock, the later one sending the cookie the earlier one received.
 */
export function refreshSession(): Promise<boolean> {
  refreshInFlight ??= exchangeInTurn()
    .then((tokens) => {
      startSession(tokens);
      return true;
    })
    .catch(() => {
      forgetToken();
      return false;
    })
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

/** On a secure page: the token in memory, or one from the refresh cookie (B-26, B-29). */
export async function ensureSession(): Promise<boolean> {
  return getAccessToken() !== null || refreshSession();
}

/**
 * Revokes the session on the server. A failure is not the user's problem: they asked to leave, and
 * the caller ends the session here whatever the answer.
 */
export async function revokeServerSession(): Promise<void> {
  if (getAccessToken() === null) return;
  await apiRequest('POST', apiPaths.identity.logout, { sessionCheck: false }).catch(() => undefined);
}
