/**
 * Runs tasks one after another. A keystore's read-modify-write of its file, and a PKCS#11 module's
 * sessions (one login state per application, operations that span awaits), must not interleave.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
