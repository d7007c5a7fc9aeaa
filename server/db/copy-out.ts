import type { Compilable, Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

/**
 * Rows of one text column streamed out of PostgreSQL by `COPY (query) TO STDOUT`, as bytes (decision
 * 027). The `pg` driver has no COPY support of its own. This is the COPY-out sub-protocol over `pg`'s
 * submittable queries rather than `pg-copy-streams`, because the connection must go back to the pool
 * when the server has sent the last row, not when a slow download has taken it: every CopyData
 * message the server answers is read as it arrives, and the socket is paused while the reader is
 * behind, so an export holds about `HIGH_WATER_BYTES` whatever its size.
 *
 * COPY takes no bind parameters, so the query's parameters are written into its text as literals
 * (`inlineParameters`). The binary format is used because it passes each value through untouched:
 * the text and CSV formats would escape or quote the line ends and quotes the lines already hold.
 */

/** The PostgreSQL pools behind the Kysely instances that may COPY; PGlite's are absent. */
const copyPools = new WeakMap<Kysely<Database>, pg.Pool>();

/** Lets `copyOutLines` stream from `db`, whose connections come from `pool` (server/db/connection.ts). */
export function enableCopyOut(db: Kysely<Database>, pool: pg.Pool): void {
  copyPools.set(db, pool);
}

/** Bytes handed on at a time: large enough that the per-chunk costs vanish, small enough to stream. */
const CHUNK_BYTES = 64 * 1024;
/** Above this many bytes read but not yet taken, the socket is paused. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * How long a reader may take no chunk while COPY waits for it. A client that stops reading without
 * closing (a stalled download) would otherwise hold a pooled connection for as long as its socket
 * lives; past this the connection is closed and the transfer cut. A download that moves at all takes
 * a chunk far more often.
 */
export const COPY_STALL_MS = 60_000;

/**
 * The single text column `line` of every row of `query`, in its order, each line's bytes as they
 * are (UTF-8), through COPY; null when `db` is not PostgreSQL. The connection goes back to the pool
 * as soon as the server has sent the last row, whether or not the reader has taken it (a small
 * export is read whole before its reader starts); until then, a reader that stops early, or takes
 * nothing for `COPY_STALL_MS`, closes it, which ends the query on the server.
 */
export function copyOutLines(
  db: Kysely<Database>,
  query: Compilable<{ line: string }>,
): AsyncGenerator<Uint8Array, void, undefined> | null {
  const pool = copyPools.get(db);
  if (!pool) return null;
  const compiled = query.compile();
  return copyOut(
    pool,
    `copy (${inlineParameters(compiled.sql, compiled.parameters)}) to stdout (format binary)`,
  );
}

async function* copyOut(pool: pg.Pool, statement: string): AsyncGenerator<Uint8Array, void, undefined> {
  const client = await pool.connect();
  let released = false;
  // Once: when the server is done (the connection is clean), or when the reader gives up or stalls
  // (a connection in the middle of a COPY cannot be reused: closing it stops the server's query).
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  const copy = new CopyOutQuery(statement, release);
  client.query(copy);
  try {
    yield* copy.chunks();
  } finally {
    copy.stop();
  }
}

/**
 * `sql` with every `$n` replaced by its parameter as a literal. Only the kinds of value the exports'
 * filters pass are accepted (text, booleans, numbers, instants); strings go through `pg`'s own
 * quoting, which is safe whatever `standard_conforming_strings` says. One pass over Kysely's text,
 * whose `$n` are all placeholders as long as no `sql.lit` in the query holds a `$` and a digit.
 */
export function inlineParameters(sql: string, parameters: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = parameters[Number(index) - 1];
    if (value === null) return 'null';
    if (typeof value === 'boolean') return String(value);
    // In parentheses: `x - $1` with -1 written bare would read `x - -1`, and `--` starts a comment.
    if (typeof value === 'number' && Number.isFinite(value)) return `(${value})`;
    // An instant, as `pg` would send it: text the context types (timestamptz), here in UTC.
    if (value instanceof Date && Number.isFinite(value.getTime()))
      return pg.escapeLiteral(value.toISOString());
    if (typeof value === 'string') {
      // PostgreSQL ends a query's text at a NUL byte; it is refused in any text value anyway.
      if (value.includes('\0')) throw new Error('A text value holds a NUL character.');
      return pg.escapeLiteral(value);
    }
    throw new Error(`COPY cannot take a parameter of type ${typeof value}.`);
  });
}

/** The parts of `pg`'s connection a submittable query uses. */
interface PgConnection {
  query(text: string): void;
  stream: { pause(): void; resume(): void };
}

/**
 * One `COPY … TO STDOUT (format binary)` of a single text column, as a `pg` submittable query: the
 * client hands it the server's messages while it is the active query. The column's bytes are copied
 * out of each message at once (`pg` reuses the buffer it parsed them from) into chunks of
 * `CHUNK_BYTES`.
 */
class CopyOutQuery {
  readonly #text: string;
  #connection: PgConnection | null = null;
  readonly #rows = new BinaryCopyRows();
  #chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  #chunkLength = 0;
  readonly #ready: Buffer[] = [];
  #readyBytes = 0;
  #paused = false;
  #error: Error | null = null;
  /** The server answered ReadyForQuery: the connection is free again. */
  #finished = false;
  #wake: (() => void) | null = null;
  /** Hands the connection back: clean without an error, closed with one. */
  readonly #release: (error?: Error) => void;
  #stall: NodeJS.Timeout | null = null;

  constructor(text: string, release: (error?: Error) => void) {
    this.#text = text;
    this.#release = release;
  }

  submit(connection: PgConnection): void {
    this.#connection = connection;
    connection.query(this.#text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    try {
      this.#rows.read(message.chunk, (bytes) => this.#append(bytes));
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  handleCommandComplete(): void {
    if (!this.#rows.ended) this.#fail(new Error('COPY ended without its end-of-data marker.'));
    this.#handOn();
  }

  handleReadyForQuery(): void {
    this.#finished = true;
    this.#stopWaitingForReader();
    // The rest arrived in the read that paused the socket; the connection goes back ready to read.
    if (this.#paused) {
      this.#paused = false;
      this.#connection?.stream.resume();
    }
    this.#release();
    this.#notify();
  }

  /** The reader is gone: if the server is not done, the connection is closed. */
  stop(): void {
    this.#stopWaitingForReader();
    if (!this.#finished) this.#release(new Error('The export stopped before its last row.'));
  }

  handleError(error: Error): void {
    this.#fail(error);
  }

  handleRowDescription(): void {
    this.#fail(new Error('The statement answered rows instead of COPY data.'));
  }

  handleDataRow(): void {}

  handleEmptyQuery(): void {
    this.#fail(new Error('The COPY statement was empty.'));
  }

  handleCopyInResponse(): void {
    this.#fail(new Error('The statement asked for COPY data instead of sending it.'));
  }

  handlePortalSuspended(): void {}

  /** The chunks in order; rejects with the server's error, if any, once the chunks before it are taken. */
  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    while (true) {
      const chunk = this.#ready.shift();
      if (chunk) {
        this.#readyBytes -= chunk.byteLength;
        if (this.#paused && this.#readyBytes < HIGH_WATER_BYTES / 2) {
          this.#paused = false;
          this.#connection?.stream.resume();
        }
        this.#stopWaitingForReader();
        if (this.#paused) this.#waitForReader();
        yield chunk;
        continue;
      }
      if (this.#error) throw this.#error;
      if (this.#finished) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #append(bytes: Buffer): void {
    let offset = 0;
    while (offset < bytes.byteLength) {
      const copied = bytes.copy(this.#chunk, this.#chunkLength, offset);
      this.#chunkLength += copied;
      offset += copied;
      if (this.#chunkLength === CHUNK_BYTES) this.#handOn();
    }
  }

  /** Hands the chunk being filled to the reader, pausing the socket when the reader is behind. */
  #handOn(): void {
    if (this.#chunkLength === 0) return;
    this.#ready.push(this.#chunk.subarray(0, this.#chunkLength));
    this.#readyBytes += this.#chunkLength;
    this.#chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#chunkLength = 0;
    if (!this.#paused && this.#readyBytes >= HIGH_WATER_BYTES) {
      this.#paused = true;
      this.#connection?.stream.pause();
      this.#waitForReader();
    }
    this.#notify();
  }

  /** While paused for the reader: closes the connection if it takes nothing for `COPY_STALL_MS`. */
  #waitForReader(): void {
    this.#stall = setTimeout(() => {
      const error = new Error(`The export's reader took nothing for ${COPY_STALL_MS / 1000} s.`);
      this.#release(error);
      this.#fail(error);
    }, COPY_STALL_MS);
    this.#stall.unref();
  }

  #stopWaitingForReader(): void {
    if (this.#stall) clearTimeout(this.#stall);
    this.#stall = null;
  }

  #fail(error: Error): void {
    this.#error ??= error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

/** 'PGCOPY\n\377\r\n\0', the start of every binary COPY (PostgreSQL docs, "Binary Format"). */
const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The signature, the flags field and the length of the header extension. */
const BINARY_HEADER_BYTES = BINARY_SIGNATURE.byteLength + 8;

const NOTHING = Buffer.alloc(0);

/**
 * Reads binary COPY data of one non-null column, however the server splits it into messages: the
 * header, then per row a field count (1) and the value's length before its bytes, then -1 to end.
 * Hands on each value's bytes, possibly in several pieces.
 */
class BinaryCopyRows {
  /** Bytes of a header or row prefix that arrived split across messages. */
  #carry: Buffer = NOTHING;
  #headerRead = false;
  /** Header extension bytes still to skip. */
  #skip = 0;
  /** Bytes of the current value still to hand on. */
  #valueLeft = 0;
  ended = false;

  read(message: Buffer, value: (bytes: Buffer) => void): void {
    const bytes = this.#carry.byteLength > 0 ? Buffer.concat([this.#carry, message]) : message;
    let at = 0;
    while (at < bytes.byteLength) {
      if (this.#valueLeft > 0) {
        const end = Math.min(bytes.byteLength, at + this.#valueLeft);
        value(bytes.subarray(at, end));
        this.#valueLeft -= end - at;
        at = end;
      } else if (this.#skip > 0) {
        const end = Math.min(bytes.byteLength, at + this.#skip);
        this.#skip -= end - at;
        at = end;
      } else if (!this.#headerRead) {
        if (bytes.byteLength - at < BINARY_HEADER_BYTES) break;
        if (!bytes.subarray(at, at + BINARY_SIGNATURE.byteLength).equals(BINARY_SIGNATURE)) {
          throw new Error('COPY data does not start with the binary signature.');
        }
        this.#skip = bytes.readInt32BE(at + BINARY_HEADER_BYTES - 4);
        this.#headerRead = true;
        at += BINARY_HEADER_BYTES;
      } else if (this.ended) {
        throw new Error('COPY data continues after its end-of-data marker.');
      } else {
        if (bytes.byteLength - at < 2) break;
        const fields = bytes.readInt16BE(at);
        if (fields === -1) {
          this.ended = true;
          at += 2;
          continue;
        }
        if (fields !== 1) throw new Error(`COPY rows hold ${fields} columns, not one.`);
        if (bytes.byteLength - at < 6) break;
        const length = bytes.readInt32BE(at + 2);
        if (length < 0) throw new Error('A COPY row holds null instead of its line.');
        this.#valueLeft = length;
        at += 6;
      }
    }
    // Copied: the message's buffer is the driver's and is reused for the next ones.
    this.#carry = at === bytes.byteLength ? NOTHING : Buffer.from(bytes.subarray(at));
  }
}
