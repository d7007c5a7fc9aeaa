/** Business constants of the spec (overview §9, account administration §9). */
export const ACCOUNT_EXPIRY_WARNING_DAYS = 30;
export const ACCOUNT_EXPIRY_BANNER_DAYS = [30, 60] as const;
export const ACCOUNTS_TABLE_DEFAULT_LIMIT = 10;
/**
 * How many rows past a page's start a list counts exactly (decision 024): beyond it the total is a
 * lower bound (`total_is_lower_bound`), so counting costs the same at any size of table.
 */
export const LIST_TOTAL_WINDOW = 200;
export const SYSTEM_ACCOUNT_NAME = 'System Account';
export const EMPTY_ID = '{hash}';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DEFAULT_USER_DATE_FORMAT = 'DD-MMM-YYYY';
export const UNLIMITED = -1;
export const EXCLUDED_COUNTRIES = ['CU', 'IR', 'SY', 'KP'] as const;
export const HARDWARE_TOKEN_SELECT_DELAY_MS = 500;
export const TRUST_AGENT_PORT = 8900;
export const DESKTOP_CLIENT_PORT = 20404;

export const ACCOUNT_TYPES = ['account', 'system', 'end_user', 'partner'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const PLAN_TYPES = ['standard', 'partner'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const NOTIFICATION_TYPES = ['error', 'success', 'warning', 'info'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
