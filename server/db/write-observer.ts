import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Whether a statement may change data: anything but a plain select. Raw SQL counts as a select only
 * when it starts with `select`; a select with a `with` clause may hold a data-changing CTE.
 */
function mayWrite(node: RootOperationNode): boolean {
  if (node.kind === 'SelectQueryNode') return node.with !== undefined;
  if (node.kind === 'RawNode') return !/^\s*select\b/i.test(node.sqlFragments[0] ?? '');
  return true;
}

/**
 * A Kysely plugin telling its subscribers when a statement that may change data starts and when it has
 * completed, through this process's database handle, transactions included: what this process keeps
 * about the data can be dropped before the writer goes on, without waiting for a notification.
 */
export class WriteObserver implements KyselyPlugin {
  readonly #subscribers = new Set<() => void>();
  readonly #writes = new WeakSet<QueryId>();

  /** Calls `subscriber` at the start and at the end of every statement that may change data; answers how to stop. */
  subscribe(subscriber: () => void): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (mayWrite(node)) {
      this.#writes.add(queryId);
      this.#tell();
    }
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(queryId)) this.#tell();
    return result;
  }

  #tell(): void {
    for (const subscriber of this.#subscribers) subscriber();
  }
}
