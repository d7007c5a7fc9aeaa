/**
 * Router state the account screens hand each other. One declaration for the whole console: TanStack
 * Router types `navigate({ state })` and `useLocation().state` from this interface.
 */
declare module '@tanstack/history' {
  interface HistoryState {
    /** Set by the accounts list's create menu: the create screen starts as partner-account creation (F-28). */
    createPartner?: boolean;
  }
}

export {};
