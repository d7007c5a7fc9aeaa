import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { ALL_LICENCE_TYPES, MAX_LICENCE_QUANTITY } from '../../contract/licences.ts';
import { APPLICATION_CODES, type ApplicationCode } from '../../contract/permissions.ts';
import { type LicencePayload, licencePayloadSchema } from '../../contract/schemas/licence.ts';
import { addDays, utcDate } from '../dates.ts';
import { keyFingerprint } from './format.ts';
import { issueLicence } from './issue.ts';
import { loadOrCreateVendorKeys, VENDOR_PRIVATE_KEY_FILE } from './vendor-keys.ts';

const USAGE = `Issues a signed licence for this installation and prints it on stdout.

  npm run --silent licence -- [--days 365] [--licensee "Name"] [--seats account_manager=-1,ca_manager=100]
                                [--limits ca_manager.certificates=500,document_signing_manager.hardware_key_pair_units=10]
                                [--data-dir DIR]

  --days       days of validity from today (default 365)
  --licensee   who the licence is for (default "Local installation")
  --seats      application=limit pairs, -1 for unlimited (default: every application unlimited)
  --limits     application.type=limit pairs: the system pool of one licence type, -1 for unlimited;
               a type not named has its application's seats (licence types: ${licenceTypeNames()})
  --data-dir   where the vendor key pair lives (default: DATA_DIR, else ./data)

The vendor key pair (${VENDOR_PRIVATE_KEY_FILE} and its .pub.pem) is created in the data directory
when absent; a server using that directory trusts it. Use --silent so npm's banner does not end up
in the file: npm run --silent licence -- --days 365 --data-dir data > data/licence.txt`;

function licenceTypeNames(): string {
  return ALL_LICENCE_TYPES.map((type) => `${type.app}.${type.id}`).join(', ');
}

/** A limit as the command line gives it: -1, or a whole number from 0 up to a 32-bit integer's largest. */
function parseLimit(text: string, what: string, maximum: number): number {
  const value = Number(text);
  if (!/^(-1|0|[1-9][0-9]*)$/.test(text) || value > maximum) {
    throw new Error(`${what} must be -1 or a whole number from 0 to ${maximum}.`);
  }
  return value;
}

function parseLimits(text: string | undefined): LicencePayload['limits'] {
  if (text === undefined) return undefined;
  const limits: NonNullable<LicencePayload['limits']> = {};
  for (const pair of text.split(',')) {
    const [name = '', limit = ''] = pair.split('=').map((part) => part.trim());
    const type = ALL_LICENCE_TYPES.find((candidate) => `${candidate.app}.${candidate.id}` === name);
    if (!type) throw new Error(`Unknown licence type "${name}" in --limits; known: ${licenceTypeNames()}.`);
    limits[type.app] = {
      ...limits[type.app],
      [type.id]: parseLimit(limit, `The limit of ${name}`, MAX_LICENCE_QUANTITY),
    };
  }
  return limits;
}

function parseSeats(text: string | undefined): Partial<Record<ApplicationCode, number>> {
  if (text === undefined) return Object.fromEntries(APPLICATION_CODES.map((code) => [code, -1]));
  const seats: Partial<Record<ApplicationCode, number>> = {};
  for (const pair of text.split(',')) {
    const [code = '', limit = ''] = pair.split('=').map((part) => part.trim());
    if (!(APPLICATION_CODES as readonly string[]).includes(code)) {
      throw new Error(`Unknown application "${code}" in --seats; known: ${APPLICATION_CODES.join(', ')}.`);
    }
    seats[code as ApplicationCode] = parseLimit(limit, `Seats of ${code}`, Number.MAX_SAFE_INTEGER);
  }
  return seats;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      days: { type: 'string', default: '365' },
      licensee: { type: 'string', default: 'Local installation' },
      seats: { type: 'string' },
      limits: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.info(USAGE);
    return;
  }
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1) throw new Error('--days must be a whole number of at least 1.');

  const dataDir = path.resolve(values['data-dir'] ?? (process.env.DATA_DIR || 'data'));
  const keys = await loadOrCreateVendorKeys(dataDir);
  const fingerprint = keyFingerprint(keys.publicKey);
  console.error(
    keys.created
      ? `Created the vendor key pair in ${dataDir} (fingerprint ${fingerprint}).`
      : `Signing with the vendor key in ${dataDir} (fingerprint ${fingerprint}).`,
  );

  const now = new Date();
  const validFrom = utcDate(now);
  const payload: LicencePayload = v.parse(licencePayloadSchema, {
    licence_id: randomUUID(),
    licensee: values.licensee,
    valid_from: validFrom,
    valid_to: addDays(validFrom, days),
    seats: parseSeats(values.seats),
    ...(values.limits === undefined ? {} : { limits: parseLimits(values.limits) }),
    issued_at: now.toISOString(),
  });
  process.stdout.write(`${await issueLicence(payload, keys.privateKey)}\n`);
  console.error(`Licence for "${payload.licensee}" valid ${payload.valid_from} to ${payload.valid_to}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(`\n${USAGE}`);
  process.exitCode = 1;
});
