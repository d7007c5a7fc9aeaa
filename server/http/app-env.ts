import type { Principal } from '../identity/principal.ts';

/** Hono environment of every route: `c.var.principal` is set by the authentication middleware. */
export interface AppEnv {
  Variables: {
    principal: Principal;
    /** The caller behind the Authorization header once worked out (`null`: none), see `callerOf`. */
    caller: Principal | null | undefined;
  };
}
