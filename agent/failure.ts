import type { CommandError } from '../contract/trust-agent/commands.ts';
import type { CommandErrorCode } from '../contract/trust-agent/errors.ts';

/** A command's refusal: becomes the encrypted `{ ok: false, error }` answer, never a crash. */
export class CommandFailure extends Error {
  readonly code: CommandErrorCode;
  readonly details: Omit<CommandError, 'code' | 'message'>;

  constructor(code: CommandErrorCode, message: string, details: Omit<CommandError, 'code' | 'message'> = {}) {
    super(message);
    this.name = 'CommandFailure';
    this.code = code;
    this.details = details;
  }

  toError(): CommandError {
    return { code: this.code, message: this.message, ...this.details };
  }
}
