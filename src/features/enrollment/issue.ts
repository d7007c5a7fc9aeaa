import type { SubjectField } from '../../../contract/certificate-policy.ts';
import { MULTI_VALUE_SUBJECT_FIELDS } from '../../../contract/certificate-policy.ts';
import type { KeystoreLocation } from '../../../contract/schemas/certificate-profiles.ts';
import {
  ENROLLMENT_VALIDITY_YEARS,
  type EnrollmentCertificate,
  type EnrollmentCertificateRequest,
} from '../../../contract/schemas/enrollments.ts';
import type { AgentCommand, CommandError, CommandRequest } from '../../../contract/trust-agent/commands.ts';
import type { KeyParameters, Mechanism } from '../../../contract/trust-agent/entities.ts';
import { keyRefusal } from '../../../contract/trust-agent/mechanisms.ts';
import { loadTemporal, type Temporal } from '../../lib/temporal.ts';
import type { CommandResult, UndeliveredCommand } from '../../trust-agent/shared.ts';
import { subjectLines } from './schemas.ts';

/**
 * The issue sequence of the enrollment page (overview §3, §4; decision 021): the key and its CSR are
 * made in the agent, the CA issues the certificate, the agent imports it next to its key, and the
 * enrollment is redeemed. Each step's outcome is kept, so a failure after the certificate request
 * resumes where it stopped and never asks the CA a second time.
 */

/** The keystore the user chose and unlocked on the first step. */
export interface ChosenKeystore {
  location: KeystoreLocation;
  keystoreId: string;
  label: string;
  mechanisms: readonly Mechanism[];
  pin: string;
}

/** The keystore chosen for a new key, and the key to make in it (key-types.ts). */
export interface KeystoreForNewKey extends ChosenKeystore {
  key: KeyParameters;
}

/** What the enrollment form gathered: the person, the common name and the subject values. */
export interface EnrollmentDetails {
  first_name: string;
  last_name: string;
  email: string;
  common_name: string;
  subject: Partial<Record<Exclude<SubjectField, 'common_name'>, string>>;
}

export type SendCommand = <C extends AgentCommand>(
  command: C,
  request: CommandRequest<C>,
) => Promise<CommandResult<C>>;

/** A refusal of the agent, or a command it never received; the page words it (agent-messages.tsx). */
export class AgentCommandError extends Error {
  constructor(readonly failure: CommandError | UndeliveredCommand) {
    super('code' in failure ? failure.code : failure.reason);
    this.name = 'AgentCommandError';
  }
}

/** The agent answered a CSR that is not PEM wrapped at 64 characters (overview §9). */
export class MalformedCsrError extends Error {
  constructor() {
    super('The trust agent answered a CSR that is not PEM with 64-character lines');
    this.name = 'MalformedCsrError';
  }
}

/** Thrown when the certificate request was sent already during this page load (overview §4, step 5). */
export class AlreadyRequestedError extends Error {
  constructor() {
    super('The certificate was already requested from this page');
    this.name = 'AlreadyRequestedError';
  }
}

/** A command's answer (of the trust agent or the desktop client), or its refusal thrown as `AgentCommandError`. */
export function commandAnswer<R>(
  result: { ok: true; result: R } | { ok: false; error: CommandError } | UndeliveredCommand,
): R {
  if (!result.ok) throw new AgentCommandError('error' in result ? result.error : result);
  return result.result;
}

async function run<C extends AgentCommand>(send: SendCommand, command: C, request: CommandRequest<C>) {
  return commandAnswer(await send(command, request));
}

/** A PEM CSR whose base64 body runs in lines of 64 characters, the last one at most 64. */
export function isCsrWrappedAt64(csr: string): boolean {
  const lines = csr.trim().split(/\r?\n/);
  if (lines[0] !== '-----BEGIN CERTIFICATE REQUEST-----') return false;
  if (lines.at(-1) !== '-----END CERTIFICATE REQUEST-----') return false;
  const body = lines.slice(1, -1);
  if (body.length === 0) return false;
  return body.every(
    (line, index) =>
      /^[A-Za-z0-9+/=]+$/.test(line) && (index === body.length - 1 ? line.length <= 64 : line.length === 64),
  );
}

/** Eight random hexadecimal characters: two enrollments of one person get different names. */
export function nameSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The request body (overview §3): name with a suffix, a year's validity, DTA, the upper-cased location. */
export function certificateRequest(
  details: EnrollmentDetails,
  location: KeystoreLocation,
  csr: string,
  today: Temporal.PlainDate,
  suffix: string,
): EnrollmentCertificateRequest {
  const subject: Record<string, string | string[]> = {};
  for (const [field, value] of Object.entries(details.subject)) {
    const text = value?.trim() ?? '';
    if (text === '') continue;
    // The form takes several values one per line (emails is the one e-mail field of the form).
    subject[field] = (MULTI_VALUE_SUBJECT_FIELDS as readonly string[]).includes(field)
      ? subjectLines(text)
      : text;
  }
  return {
    ...subject,
    name: `${`${details.first_name} ${details.last_name}`.trim()} ${suffix}`,
    end_date: today.add({ years: ENROLLMENT_VALIDITY_YEARS }).toString(),
    csr,
    common_name: details.common_name,
    enrollment_method: 'DTA',
    keystore_type: location.toUpperCase(),
  };
}

/** How far the sequence got; kept by the page so a retry resumes. */
export interface IssueProgress {
  csr?: string;
  certificate?: EnrollmentCertificate;
  imported?: boolean;
  redeemed?: boolean;
}

export type IssueStage = 'generate' | 'request' | 'import' | 'redeem';

export interface IssueDependencies {
  send: SendCommand;
  requestCertificate: (request: EnrollmentCertificateRequest) => Promise<EnrollmentCertificate>;
  redeem: () => Promise<unknown>;
  /** Whether this page load sent its certificate request already; `markRequested` records it. */
  requested: () => boolean;
  markRequested: () => void;
  onProgress: (progress: IssueProgress, next: IssueStage | null) => void;
  today?: () => Temporal.PlainDate;
}

/** Runs the steps not done yet in `progress`; rejects with the failing step's error. */
export async function issueCertificate(
  keystore: KeystoreForNewKey,
  details: EnrollmentDetails,
  start: IssueProgress,
  deps: IssueDependencies,
): Promise<IssueProgress> {
  let progress = { ...start };
  const done = (change: IssueProgress) => {
    progress = { ...progress, ...change };
    deps.onProgress(progress, null);
  };
  const stage = (next: IssueStage) => deps.onProgress(progress, next);

  if (progress.certificate === undefined) {
    if (deps.requested()) throw new AlreadyRequestedError();
    if (progress.csr === undefined) {
      stage('generate');
      // Checked against the keystore's mechanisms before any key is made (overview §5), in the agent's codes.
      const refusal = keyRefusal(keystore.mechanisms, keystore.key);
      if (refusal) throw new AgentCommandError(refusal);
      const { csr } = await run(deps.send, 'generate', {
        keystoreId: keystore.keystoreId,
        pin: keystore.pin,
        ...keystore.key,
        subject: { commonName: details.common_name },
      });
      if (!isCsrWrappedAt64(csr)) throw new MalformedCsrError();
      done({ csr });
    }
    stage('request');
    const today = deps.today?.() ?? (await loadTemporal()).Now.plainDateISO();
    const request = certificateRequest(
      details,
      keystore.location,
      progress.csr as string,
      today,
      nameSuffix(),
    );
    // Marked before the answer: a request that fails on the way may still have issued.
    deps.markRequested();
    done({ certificate: await deps.requestCertificate(request) });
  }
  const certificate = progress.certificate as EnrollmentCertificate;
  if (!progress.imported) {
    stage('import');
    await run(deps.send, 'importCert', {
      keystoreId: keystore.keystoreId,
      pin: keystore.pin,
      certificate: certificate.x509_cert,
    });
    done({ imported: true });
  }
  if (!progress.redeemed) {
    stage('redeem');
    await deps.redeem();
    done({ redeemed: true });
  }
  return progress;
}
