import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { CommandError } from '../../../../contract/trust-agent/commands.ts';
import { HARDWARE_TOKEN_KEY_SIZE } from '../../../../contract/trust-agent/constants.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import type { UndeliveredCommand } from '../../../trust-agent/shared.ts';

/** The RSA range a key-size refusal carries. */
function rsaRange({ mechanism }: CommandError) {
  return mechanism?.algorithm === 'RSA' ? mechanism : undefined;
}

/** The agent's refusal in the user's words (overview §5, §8): PIN, keystore and key-size messages. */
export function useAgentFailureText(): (failure: CommandError | UndeliveredCommand) => string {
  const { t } = useLingui();
  return (failure) => {
    if ('undelivered' in failure) {
      return t`The trust agent did not answer. Check that it is running on this computer and try again.`;
    }
    const size = HARDWARE_TOKEN_KEY_SIZE;
    switch (failure.code) {
      case 'pinIncorrect': {
        const left = failure.retriesLeft;
        if (left === undefined || left === null) return t`The PIN is not correct.`;
        return plural(left, {
          one: 'The PIN is not correct. # attempt is left before the keystore locks.',
          other: 'The PIN is not correct. # attempts are left before the keystore locks.',
        });
      }
      case 'pinLocked':
        return t`The PIN is locked after too many wrong attempts. Unlock it with the token's own tool, or ask your administrator.`;
      case 'pinNotInitialized':
        return t`The PIN of this keystore is not initialized. Set a PIN with the token's own tool first.`;
      case 'pinInvalid':
        return t`The PIN must be 4 to 64 characters long.`;
      case 'keystoreUninitialized':
        return t`This keystore is not initialized yet.`;
      case 'tokenUninitialized':
        return t`This token is not initialized. Initialize it with its maker's tool, then choose it.`;
      case 'keystoreNotFound':
      case 'keystoreNotAvailable':
      case 'noKeystore':
        return t`The keystore is not available. Connect the token again, or choose another keystore.`;
      case 'keySizeBelowMinimum': {
        const minimum = rsaRange(failure)?.minKeySize ?? 0;
        return t`The token needs keys of at least ${minimum} bits; this certificate uses an RSA key of ${size} bits.`;
      }
      case 'keySizeAboveMaximum': {
        const maximum = rsaRange(failure)?.maxKeySize ?? 0;
        return t`The token makes keys of at most ${maximum} bits; this certificate uses an RSA key of ${size} bits.`;
      }
      case 'invalidKeyType':
        return t`The token cannot make RSA keys, which this certificate needs. Choose another keystore.`;
      case 'certificateKeyMismatch':
        return t`This certificate was issued for a key this keystore does not hold, so it cannot be installed here.`;
      case 'keyNotFound':
        return t`The keystore no longer holds the key this certificate was issued for.`;
      case 'securityPolicyNotMet':
        return t`This certificate's profile needs its key on a hardware token. Choose the token that holds it.`;
      default: {
        const code = failure.code;
        return t`The trust agent could not complete the operation (${code}).`;
      }
    }
  };
}

export function AgentFailureAlert({ failure }: { failure: CommandError | UndeliveredCommand }) {
  const text = useAgentFailureText();
  return (
    <Alert tone="error">
      <p>{text(failure)}</p>
    </Alert>
  );
}
