import type { Kysely } from 'kysely';
// The endpoints these route modules implement are described in docs/api.md.
import type { ServerConfig } from './config.ts';
import type { Database } from './db/schema.ts';

/** What every route module receives: the database, the configuration and the clock. */
export interface AppDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  /** The current instant; tests pass a fixed clock. */
  now: () => Date;
  /**
   * The mail dispatcher of this process: routes call `nudge()` after committing a change that
   * enqueued mail, so it leaves at once rather than at the next poll (decision 037 §2). A no-op in
   * tests that drive a dispatcher themselves.
   */
  mail: { nudge(): void };
  /** The bulk user-creation runner of this process, told when a job starts or is cancelled. */
  bulkImport?: { nudge: () => void };
}
