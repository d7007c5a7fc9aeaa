/** The Lingui Vite plugin compiles an imported `.po` catalog to this module. */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
