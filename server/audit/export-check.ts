import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import * as v from 'valibot';
import {
  type AuditCheckpoint,
  type AuditExportProof,
  type AuditPublicKey,
  auditCheckpointListSchema,
  auditEventSchema,
  auditExportProofSchema,
} from '../../contract/schemas/audit-log.ts';
import { auditEventHash, checkpointSignatureHolds, GENESIS_HASH } from './event-hash.ts';

/**
 * The offline check of a JSON Lines export of the audit log (`npm run audit:verify FILE [CHECKPOINT]`,
 * decision 023), with the hashing the server uses and nothing of its database. The file is read line
 * by line, twice (its proof is its last line), so memory stays flat whatever its size.
 */

export type ExportCheck =
  | {
      ok: true;
      events: number;
      linked: boolean;
      checkpointSeq: number | null;
      keptCheckpointSeq: number | null;
    }
  | { ok: false; line: number | null; seq: number | null; id: string | null; problem: string };

async function* lines(file: string): AsyncGenerator<{ number: number; text: string }> {
  const reader = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  for await (const text of reader) {
    number += 1;
    if (text.trim() !== '') yield { number, text };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The proof line, which must be the file's last; null when the file has none. */
async function proofOf(file: string): Promise<{ proof: AuditExportProof['proof']; line: number } | null> {
  let last: { number: number; text: string } | null = null;
  for await (const line of lines(file)) last = line;
  if (last === null) return null;
  const parsed = v.safeParse(auditExportProofSchema, parseJson(last.text));
  return parsed.success ? { proof: parsed.output.proof, line: last.number } : null;
}

/** A checkpoint and the keys that check it, from a kept checkpoints file (the list's answer). */
async function keptCheckpoint(
  file: string,
): Promise<{ checkpoint: AuditCheckpoint; keys: AuditPublicKey[] } | string> {
  const parsed = v.safeParse(auditCheckpointListSchema, parseJson(await readFile(file, 'utf8')));
  if (!parsed.success) return `${file} is not a checkpoints file (GET audit-log/checkpoints).`;
  const newest = parsed.output.items.reduce<AuditCheckpoint | null>(
    (best, item) => (best === null || item.seq > best.seq ? item : best),
    null,
  );
  if (newest === null) return `${file} holds no checkpoint.`;
  return { checkpoint: newest, keys: parsed.output.public_keys };
}

function signatureHolds(checkpoint: AuditCheckpoint, keys: readonly AuditPublicKey[]): boolean {
  const key = keys.find((candidate) => candidate.key_id === checkpoint.key_id);
  return key !== undefined && checkpointSignatureHolds(checkpoint, key.public_key_pem);
}

/**
 * Checks every event's hash, the links between consecutive lines (when the export is not filtered:
 * from the first event of the chain on), the export's own checkpoint (signature, and its head among
 * the lines), and, with `checkpointFile`, a checkpoint kept apart from the server: its signature
 * under the keys kept with it, and its head among the lines, which a truncated export lacks.
 */
export async function checkAuditExport(file: string, checkpointFile?: string): Promise<ExportCheck> {
  const fail = (problem: string, at: { line?: number; seq?: number; id?: string } = {}): ExportCheck => ({
    ok: false,
    line: at.line ?? null,
    seq: at.seq ?? null,
    id: at.id ?? null,
    problem,
  });
  const found = await proofOf(file);
  if (found === null)
    return fail('The file has no proof line: it is not a whole JSON Lines export, or it was cut.');
  const { proof } = found;
  const kept = checkpointFile === undefined ? undefined : await keptCheckpoint(checkpointFile);
  if (typeof kept === 'string') return fail(kept);
  if (kept && !signatureHolds(kept.checkpoint, kept.keys)) {
    return fail(
      `The kept checkpoint at seq ${kept.checkpoint.seq} is not signed by its key: it is forged or altered.`,
    );
  }
  const exported = proof.checkpoint;
  // Keys kept apart are the ones to trust; the export's own serve when none were kept.
  if (exported && !signatureHolds(exported, kept?.keys ?? proof.public_keys)) {
    return fail(
      `The export's checkpoint at seq ${exported.seq} is not signed by a trusted key: it is forged or altered.`,
    );
  }

  let previous: { hash: string; seq: number } | null = null;
  let events = 0;
  let linked = true;
  let exportedSeen = exported === null;
  let keptSeen = kept === undefined;
  for await (const line of lines(file)) {
    if (line.number === found.line) break;
    const parsed = v.safeParse(auditEventSchema, parseJson(line.text));
    if (!parsed.success) return fail('The line is not an audit event.', { line: line.number });
    const event = parsed.output;
    const at = { line: line.number, seq: event.seq, id: event.id };
    events += 1;
    if (auditEventHash(event) !== event.hash) return fail('altered: its content does not give its hash.', at);
    const expectedPrevious = previous?.hash ?? GENESIS_HASH;
    if (event.prev_hash !== expectedPrevious) {
      if (!proof.filtered) {
        return fail(
          previous === null
            ? 'unlinked: the export does not start at the first event of the chain.'
            : 'unlinked: the event before it is missing, moved or altered.',
          at,
        );
      }
      linked = false;
    }
    if (previous !== null && event.seq <= previous.seq) return fail('unlinked: out of the chain order.', at);
    for (const [checkpoint, mark] of [
      [exported, () => (exportedSeen = true)],
      [kept?.checkpoint, () => (keptSeen = true)],
    ] as const) {
      if (checkpoint && checkpoint.seq === event.seq) {
        if (checkpoint.head_hash !== event.hash)
          return fail('missing: the checkpoint signed another event here.', at);
        mark();
      }
    }
    previous = { hash: event.hash, seq: event.seq };
  }
  if (!exportedSeen && exported && !proof.filtered) {
    return fail(`missing: the event of the export's checkpoint (seq ${exported.seq}) is not in the file.`, {
      seq: exported.seq,
    });
  }
  if (!keptSeen && kept) {
    const lastSeq = previous?.seq ?? 0;
    if (!proof.filtered || lastSeq < kept.checkpoint.seq) {
      return fail(
        lastSeq < kept.checkpoint.seq
          ? `missing: the export ends at seq ${lastSeq}, before the kept checkpoint's seq ${kept.checkpoint.seq}: it was truncated.`
          : `missing: the kept checkpoint's event (seq ${kept.checkpoint.seq}) is not in the file.`,
        { seq: kept.checkpoint.seq },
      );
    }
  }
  return {
    ok: true,
    events,
    linked: linked && !proof.filtered,
    checkpointSeq: exported?.seq ?? null,
    keptCheckpointSeq: kept && keptSeen ? kept.checkpoint.seq : null,
  };
}
