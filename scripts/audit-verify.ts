import { checkAuditExport } from '../server/audit/export-check.ts';

const USAGE = `Checks a JSON Lines export of the audit log offline (GET audit-log/export?format=jsonl).

  npm run --silent audit:verify -- FILE [CHECKPOINTS]

  FILE         the export
  CHECKPOINTS  a checkpoints file kept apart from the server (GET audit-log/checkpoints): its newest
               checkpoint must be signed by its key and its head must be in FILE, which a truncated
               or rewritten export fails

Prints OK with the counts, or the first broken event; exits with 1 when anything is broken.`;

const [file, checkpointFile, ...rest] = process.argv.slice(2);
if (file === undefined || file === '--help' || rest.length > 0) {
  console.error(USAGE);
  process.exit(2);
}
const result = await checkAuditExport(file, checkpointFile);
if (result.ok) {
  const parts = [
    `${result.events} events, every hash intact`,
    result.linked ? 'linked from the first event of the chain' : 'a filtered export: links not checked',
    result.checkpointSeq === null
      ? 'no checkpoint in the export'
      : `export checkpoint at seq ${result.checkpointSeq} holds`,
    ...(result.keptCheckpointSeq === null
      ? []
      : [`kept checkpoint at seq ${result.keptCheckpointSeq} holds`]),
  ];
  console.info(`OK: ${parts.join('; ')}.`);
} else {
  const where = [
    result.line === null ? null : `line ${result.line}`,
    result.seq === null ? null : `seq ${result.seq}`,
    result.id === null ? null : `id ${result.id}`,
  ].filter((part) => part !== null);
  console.error(`BROKEN${where.length > 0 ? ` at ${where.join(', ')}` : ''}: ${result.problem}`);
  process.exit(1);
}
