import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { AuditCheckpoint, AuditPublicKey } from '../../contract/schemas/audit-log.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { type PollingLoop, pollingLoop } from '../polling-loop.ts';
import { checkpointKeyId, checkpointMessage } from './event-hash.ts';
import { verifyAuditChain } from './verify.ts';

/**
 * Signed checkpoints of the audit chain's head (decision 023). Each server process signs with an
 * Ed25519 key kept in a file of its data directory, never in the database: whoever can rewrite the
 * trail in the database cannot sign a head for it. The public halves are registered in the database
 * so the checkpoints list can hand them to an auditor with the checkpoints.
 */

export const CHECKPOINT_KEY_FILE = 'audit-checkpoint.key.pem';

/** How often a process signs the head if it moved: an attacker's window to truncate unnoticed. */
export const CHECKPOINT_INTERVAL_MS = 10 * 60_000;

export interface CheckpointSigner {
  keyId: string;
  privateKey: KeyObject;
  publicKeyPem: string;
}

function signerOf(privateKey: KeyObject): CheckpointSigner {
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: checkpointKeyId(publicKey),
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A new key that lives only in memory (tests). */
export function generateCheckpointSigner(): CheckpointSigner {
  return signerOf(generateKeyPairSync('ed25519').privateKey);
}

/**
 * This process's checkpoint key: read from `<dataDir>/audit-checkpoint.key.pem`, made there (mode
 * 0600) on first start, and its public half registered in the database.
 */
export async function loadCheckpointSigner(
  db: Kysely<Database>,
  config: Pick<ServerConfig, 'dataDir'>,
  now: () => Date,
): Promise<CheckpointSigner> {
  const file = path.join(config.dataDir, CHECKPOINT_KEY_FILE);
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
    pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await mkdir(config.dataDir, { recursive: true });
    // `wx`: of two processes sharing the directory, the second reads the first one's key.
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' }).catch(async (cause: unknown) => {
      if (!(cause instanceof Error && 'code' in cause && cause.code === 'EEXIST')) throw cause;
      pem = await readFile(file, 'utf8');
    });
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key.`);
  const signer = signerOf(privateKey);
  await registerCheckpointKey(db, signer, now());
  return signer;
}

export async function registerCheckpointKey(
  db: Kysely<Database>,
  signer: CheckpointSigner,
  at: Date,
): Promise<void> {
  await db
    .insertInto('audit_checkpoint_keys')
    .values({ key_id: signer.keyId, public_key_pem: signer.publicKeyPem, created_at: at })
    .onConflict((oc) => oc.column('key_id').doNothing())
    .execute();
}

/** A stored checkpoint as the API answers it. */
export function checkpointRecord(row: {
  seq: number;
  head_hash: string;
  signed_at: Date;
  key_id: string;
  signature: string;
}): AuditCheckpoint {
  return { ...row, signed_at: row.signed_at.toISOString() };
}

/** The newest checkpoint, or the newest at or before `atOrBeforeSeq`. */
export async function newestCheckpoint(
  db: Kysely<Database>,
  atOrBeforeSeq?: number,
): Promise<AuditCheckpoint | undefined> {
  let query = db.selectFrom('audit_checkpoints').selectAll().orderBy('seq', 'desc').limit(1);
  if (atOrBeforeSeq !== undefined) query = query.where('seq', '<=', atOrBeforeSeq);
  const row = await query.executeTakeFirst();
  return row && checkpointRecord(row);
}

/** Every registered checkpoint key, oldest first. */
export async function checkpointKeys(db: Kysely<Database>): Promise<AuditPublicKey[]> {
  const rows = await db
    .selectFrom('audit_checkpoint_keys')
    .select(['key_id', 'public_key_pem'])
    .orderBy('created_at')
    .orderBy('key_id')
    .execute();
  return rows.map((row) => ({ ...row, algorithm: 'Ed25519' as const }));
}

/**
 * Signs the chain head when it moved since the newest checkpoint. The events since that checkpoint
 * are verified first (from its head on): a head is never signed over a break, which would vouch for
 * it. Answers the new checkpoint, or null when the head has not moved or the chain is broken (logged).
 */
export async function signAuditCheckpoint(
  db: Kysely<Database>,
  signer: CheckpointSigner,
  now: () => Date,
): Promise<AuditCheckpoint | null> {
  const head = await db
    .selectFrom('audit_events')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!head) return null;
  const previous = await newestCheckpoint(db);
  if (previous !== undefined && previous.seq >= head.seq) return null;
  if (previous !== undefined) {
    const anchor = await db
      .selectFrom('audit_events')
      .select('hash')
      .where('seq', '=', previous.seq)
      .executeTakeFirst();
    if (anchor?.hash !== previous.head_hash) {
      console.error(
        `The audit event of checkpoint ${previous.seq} is gone or changed; no checkpoint is signed.`,
      );
      return null;
    }
  }
  const span = {
    throughSeq: head.seq,
    ...(previous ? { after: { seq: previous.seq, hash: previous.head_hash } } : {}),
  };
  const check = await verifyAuditChain(db, span);
  if (!check.ok) {
    console.error(
      `The audit chain breaks at ${check.firstBadSeq} (${check.reason}); no checkpoint is signed.`,
    );
    return null;
  }
  const fields = {
    seq: head.seq,
    head_hash: head.hash,
    signed_at: now().toISOString(),
    key_id: signer.keyId,
  };
  const checkpoint: AuditCheckpoint = {
    ...fields,
    signature: sign(null, checkpointMessage(fields), signer.privateKey).toString('base64'),
  };
  // Two processes signing the same head at once: the first row stays, both are valid.
  await db
    .insertInto('audit_checkpoints')
    .values({ ...checkpoint, signed_at: new Date(checkpoint.signed_at) })
    .onConflict((oc) => oc.column('seq').doNothing())
    .execute();
  return checkpoint;
}

/** The checkpoint loop of this process: a pass at start, then every `CHECKPOINT_INTERVAL_MS`. */
export function createCheckpointScheduler(
  db: Kysely<Database>,
  signer: CheckpointSigner,
  now: () => Date,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): PollingLoop {
  return pollingLoop({
    intervalMs,
    pass: () => signAuditCheckpoint(db, signer, now),
    onError: (error) =>
      console.error('Signing an audit checkpoint failed; the next pass tries again:', error),
  });
}
