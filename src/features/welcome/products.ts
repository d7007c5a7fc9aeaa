/** The products the welcome page introduces, as its `app` address parameter names them. */
export const WELCOME_PRODUCTS = ['documentmanager', 'mpki', 'iot', 'signingmanager'] as const;
export type WelcomeProduct = (typeof WELCOME_PRODUCTS)[number];
