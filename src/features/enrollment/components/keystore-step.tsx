import { Trans, useLingui } from '@lingui/react/macro';
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { HARDWARE_TOKEN_SELECT_DELAY_MS } from '../../../../contract/constants.ts';
import {
  type KeystoreLocation,
  SOFTWARE_KEYSTORE_LOCATION,
} from '../../../../contract/schemas/certificate-profiles.ts';
import type { CommandError } from '../../../../contract/trust-agent/commands.ts';
import type { KeyParameters, Keystore, Mechanism, Token } from '../../../../contract/trust-agent/entities.ts';
import { knownRefusal, useTokenNames } from '../../../components/trust-agent/tokens.ts';
import { TrustAgentGate } from '../../../components/trust-agent/trust-agent-gate.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import type { UndeliveredCommand } from '../../../trust-agent/shared.ts';
import type { TrustAgentView } from '../../../trust-agent/use-trust-agent.ts';
import { AgentCommandError, type ChosenKeystore, commandAnswer, type KeystoreForNewKey } from '../issue.ts';
import { acceptsHardwareTokenKey, defaultKeyChoice, HARDWARE_TOKEN_KEY, keyChoices } from '../key-types.ts';
import { newKeystoreFormSchema, pinFormSchema, pinRepetitionIssue } from '../schemas.ts';
import { AgentFailureAlert, useAgentFailureText } from './agent-failure-alert.tsx';
import { KeyTypeField } from './key-type-field.tsx';

type KeystoreStepProps = {
  agent: TrustAgentView;
  /** The question over the two locations; the enrollment's own by default. */
  question?: ReactNode;
  location: KeystoreLocation;
  onLocationChange: (location: KeystoreLocation) => void;
} & (
  | {
      /**
       * The key types the certificate's profile accepts, when the step is for a new key: the key is
       * chosen here too (key-types.ts).
       */
      keyTypes: readonly string[];
      onUnlocked: (keystore: KeystoreForNewKey) => void;
    }
  | {
      /** Left out when the keystore holds the key already (a later install). */
      keyTypes?: undefined;
      onUnlocked: (keystore: ChosenKeystore) => void;
    }
);

/** The inner steps' report: the keystore, and the key to make when the step is for a new key. */
type Unlocked = (keystore: ChosenKeystore, key: KeyParameters | null) => void;

/**
 * Step 1 (overview §4): where the key is made, the trust agent's gate for that location, then the
 * keystore unlocked with its PIN: the software keystore (created here when the agent has none yet)
 * or a hardware token the user picks from the agent's list. For a new key, the software keystore
 * also asks which key type to make, and a hardware token is offered only if the profile accepts
 * the RSA 2048 key it makes.
 */
export function KeystoreStep(props: KeystoreStepProps) {
  const { agent, question, location, onLocationChange, keyTypes } = props;
  const legendId = useId();
  const onUnlocked: Unlocked = (keystore, key) => {
    if (props.keyTypes === undefined) props.onUnlocked(keystore);
    else if (key !== null) props.onUnlocked({ ...keystore, key });
  };
  const hardwareRefused = keyTypes !== undefined && !acceptsHardwareTokenKey(keyTypes);
  return (
    <>
      <fieldset className="enrollment__choices" aria-labelledby={legendId}>
        <legend id={legendId} className="enrollment__legend">
          {question ?? <Trans>Where should the key be kept?</Trans>}
        </legend>
        <label className="enrollment__choice">
          <input
            type="radio"
            name="keystore_location"
            value={SOFTWARE_KEYSTORE_LOCATION}
            checked={location === SOFTWARE_KEYSTORE_LOCATION}
            onChange={() => onLocationChange(SOFTWARE_KEYSTORE_LOCATION)}
          />
          <Trans>In the trust agent's software keystore on this computer</Trans>
        </label>
        <label className="enrollment__choice">
          <input
            type="radio"
            name="keystore_location"
            value="hardware_token"
            checked={location === 'hardware_token'}
            onChange={() => onLocationChange('hardware_token')}
          />
          <Trans>On a hardware token (smart card or USB key)</Trans>
        </label>
      </fieldset>
      {location !== SOFTWARE_KEYSTORE_LOCATION && hardwareRefused ? (
        <Alert tone="error">
          <p>
            <Trans>
              This certificate does not accept the RSA 2048 key a hardware token makes. Keep the key in the
              trust agent's software keystore instead, or ask your administrator.
            </Trans>
          </p>
        </Alert>
      ) : (
        <TrustAgentGate gate={agent.gate} onRetry={agent.retry} onPairAgain={agent.pairAgain}>
          {location === SOFTWARE_KEYSTORE_LOCATION ? (
            <SoftwareKeystore agent={agent} keyTypes={keyTypes} onUnlocked={onUnlocked} />
          ) : (
            <HardwareTokens agent={agent} newKey={keyTypes !== undefined} onUnlocked={onUnlocked} />
          )}
        </TrustAgentGate>
      )}
    </>
  );
}

interface InnerStepProps {
  agent: TrustAgentView;
  onUnlocked: Unlocked;
}

type AgentFailure = CommandError | UndeliveredCommand;

/** Runs one agent command; its refusal comes back as the failure to show. */
async function attempt(action: () => Promise<void>): Promise<AgentFailure | null> {
  try {
    await action();
    return null;
  } catch (error) {
    if (error instanceof AgentCommandError) return error.failure;
    throw error;
  }
}

function SoftwareKeystore({
  agent,
  keyTypes,
  onUnlocked,
}: InnerStepProps & { keyTypes: readonly string[] | undefined }) {
  const keystore = agent.keystores?.find((candidate) => candidate.type === 'PFX');
  const token = agent.tokens?.find((candidate) => candidate.keystoreId === keystore?.id);
  if (agent.keystores === null) return <ReadingKeystores />;
  if (!keystore) {
    return (
      <Alert tone="error">
        <p>
          <Trans>
            The trust agent on this computer offers no software keystore. Choose a hardware token, or ask your
            administrator.
          </Trans>
        </p>
      </Alert>
    );
  }
  const mechanisms = token?.mechanisms ?? [];
  const unlocked = (pin: string, key: KeyParameters | null) =>
    onUnlocked(
      {
        location: SOFTWARE_KEYSTORE_LOCATION,
        keystoreId: keystore.id,
        label: keystore.name,
        mechanisms,
        pin,
      },
      key,
    );
  switch (keystore.status) {
    case 'UNINITIALIZED':
      return <CreateKeystoreForm agent={agent} keystore={keystore} />;
    case 'LOCKED':
      return <AgentFailureAlert failure={{ code: 'pinLocked', message: '' }} />;
    case 'ABSENT':
      return <AgentFailureAlert failure={{ code: 'keystoreNotAvailable', message: '' }} />;
    case 'INITIALIZED':
      return keyTypes === undefined ? (
        <PinForm
          agent={agent}
          keystoreId={keystore.id}
          label={keystore.name}
          onVerified={(pin) => unlocked(pin, null)}
        />
      ) : (
        <NewSoftwareKey
          agent={agent}
          keystore={keystore}
          keyTypes={keyTypes}
          mechanisms={mechanisms}
          onVerified={unlocked}
        />
      );
  }
}

function ReadingKeystores() {
  return (
    <p role="status">
      <Trans>Reading the keystores of the trust agent…</Trans>
    </p>
  );
}

/**
 * For a new key in the software keystore: its type, among those the profile accepts that the
 * keystore's mechanisms (reported with its token) make, then the PIN.
 */
function NewSoftwareKey({
  agent,
  keystore,
  keyTypes,
  mechanisms,
  onVerified,
}: {
  agent: TrustAgentView;
  keystore: Keystore;
  keyTypes: readonly string[];
  mechanisms: readonly Mechanism[];
  onVerified: (pin: string, key: KeyParameters) => void;
}) {
  // The tokens are listed again every 5 s: the choice is kept by its name.
  const [chosenName, setChosenName] = useState<string | null>(null);
  if (agent.tokens === null) return <ReadingKeystores />;
  const choices = keyChoices(keyTypes, mechanisms);
  const chosen = choices.find((choice) => choice.name === chosenName) ?? defaultKeyChoice(choices);
  if (chosen === undefined) {
    const accepted = keyTypes.join(', ');
    return (
      <Alert tone="error">
        <p>
          <Trans>
            The trust agent's software keystore makes none of the key types this certificate accepts (
            {accepted}). Ask your administrator.
          </Trans>
        </p>
      </Alert>
    );
  }
  return (
    <PinForm
      agent={agent}
      keystoreId={keystore.id}
      label={keystore.name}
      onVerified={(pin) => onVerified(pin, chosen.key)}
    >
      <KeyTypeField choices={choices} chosen={chosen} onChoose={setChosenName} />
    </PinForm>
  );
}

/** No software keystore yet: the user names it and chooses its PIN (initToken). */
function CreateKeystoreForm({ agent, keystore }: { agent: TrustAgentView; keystore: Keystore }) {
  const { t } = useLingui();
  const [failure, setFailure] = useState<AgentFailure | null>(null);
  const form = useForm(newKeystoreFormSchema, {
    refine: pinRepetitionIssue,
    onSubmit: async ({ label, pin }) => {
      const refused = await attempt(async () => {
        commandAnswer(await agent.command('initToken', { keystoreId: keystore.id, label, pin }));
      });
      setFailure(refused);
      // The keystore's new status reaches the page through the worker's next listing.
      if (!refused) agent.refresh();
    },
  });
  return (
    <Form form={form} className="form">
      <Alert tone="info">
        <p>
          <Trans>
            The software keystore of the trust agent is not created yet. Create it now: the PIN protects the
            key on this computer, so choose one you will remember.
          </Trans>
        </p>
      </Alert>
      {failure ? <AgentFailureAlert failure={failure} /> : null}
      <TextField
        label={t`Keystore name`}
        {...form.field('label')}
        defaultValue={keystore.name}
        maxLength={32}
        required
      />
      <TextField
        label={t`New PIN`}
        {...form.field('pin')}
        type="password"
        autoComplete="new-password"
        description={t`4 to 64 characters.`}
        required
      />
      <TextField
        label={t`New PIN again`}
        {...form.field('repeatedPin')}
        type="password"
        autoComplete="new-password"
        required
      />
      <Button {...form.submitProps}>
        <Trans>Create the keystore</Trans>
      </Button>
    </Form>
  );
}

/**
 * The hardware-token path (overview §4, §8, §9): the agent's tokens, listed again every 5 s; the
 * page acts on a choice 500 ms after it is made, so a keyboard user moving through the radio buttons
 * does not start a PIN prompt for every token passed on the way. A token that cannot take the key
 * (one not initialized) is listed disabled with the reason, so whoever just connected a fresh card
 * sees it was found and what it needs (decision 020 §9).
 */
function HardwareTokens({ agent, newKey, onUnlocked }: InnerStepProps & { newKey: boolean }) {
  const { tokenName } = useTokenNames();
  const failureText = useAgentFailureText();
  const legendId = useId();
  const tokens = agent.tokens?.filter((token) => token.type === 'HWToken') ?? null;
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [actedId, setActedId] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const choose = (keystoreId: string) => {
    setChosenId(keystoreId);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setActedId(keystoreId), HARDWARE_TOKEN_SELECT_DELAY_MS);
  };

  if (tokens === null) {
    return (
      <p role="status">
        <Trans>Looking for hardware tokens…</Trans>
      </p>
    );
  }
  if (tokens.length === 0) {
    // noHardwareTokenDetected (overview §8).
    return (
      <Alert tone="error">
        <p>
          <Trans>
            No hardware token is detected. Connect your token to this computer; this page finds it by itself.
          </Trans>
        </p>
      </Alert>
    );
  }
  const acted = tokens.find((token) => token.keystoreId === actedId) ?? null;
  return (
    <>
      {/* hardwareTokenNotification (overview §8). */}
      <Alert tone="info">
        <p>
          <Trans>
            Keep the token connected until the certificate is in it. Choose the token for the key.
          </Trans>
        </p>
      </Alert>
      <fieldset className="enrollment__choices" aria-labelledby={legendId}>
        <legend id={legendId} className="enrollment__legend">
          <Trans>Hardware token</Trans>
        </legend>
        {tokens.map((token) => {
          const refusal = knownRefusal(token);
          const reasonId = `${legendId}-${token.keystoreId}`;
          return (
            <Fragment key={token.keystoreId}>
              <label className="enrollment__choice">
                <input
                  type="radio"
                  name="token"
                  value={token.keystoreId}
                  checked={chosenId === token.keystoreId}
                  disabled={refusal !== null}
                  aria-describedby={refusal === null ? undefined : reasonId}
                  onChange={() => choose(token.keystoreId)}
                />
                {tokenName(token)}
              </label>
              {refusal === null ? null : (
                <p id={reasonId} className="enrollment__choice-reason">
                  {failureText({ code: refusal, message: '' })}
                </p>
              )}
            </Fragment>
          );
        })}
      </fieldset>
      {acted ? (
        <TokenUnlock
          key={acted.keystoreId}
          agent={agent}
          token={acted}
          onUnlocked={(keystore) => onUnlocked(keystore, newKey ? HARDWARE_TOKEN_KEY : null)}
        />
      ) : null}
    </>
  );
}

function TokenUnlock({
  agent,
  token,
  onUnlocked,
}: {
  agent: TrustAgentView;
  token: Token;
  onUnlocked: (keystore: ChosenKeystore) => void;
}) {
  if (token.pin.locked) return <AgentFailureAlert failure={{ code: 'pinLocked', message: '' }} />;
  if (!token.pin.initialized)
    return <AgentFailureAlert failure={{ code: 'pinNotInitialized', message: '' }} />;
  return (
    <PinForm
      agent={agent}
      keystoreId={token.keystoreId}
      label={token.label}
      onVerified={(pin) =>
        onUnlocked({
          location: 'hardware_token',
          keystoreId: token.keystoreId,
          label: token.label,
          mechanisms: token.mechanisms,
          pin,
        })
      }
    />
  );
}

interface PinFormProps {
  agent: TrustAgentView;
  keystoreId: string;
  label: string;
  onVerified: (pin: string) => void;
  /** Fields shown before the PIN (the key type). */
  children?: ReactNode;
}

/** The keystore's PIN, checked by the agent (verifypin); its refusals in the page's words. */
function PinForm({ agent, keystoreId, label, onVerified, children }: PinFormProps) {
  const { t } = useLingui();
  const [failure, setFailure] = useState<AgentFailure | null>(null);
  const form = useForm(pinFormSchema, {
    onSubmit: async ({ pin }) => {
      const refused = await attempt(async () => {
        commandAnswer(await agent.command('verifypin', { keystoreId, pin }));
      });
      setFailure(refused);
      if (!refused) onVerified(pin);
    },
  });
  return (
    <Form form={form} className="form">
      {failure ? <AgentFailureAlert failure={failure} /> : null}
      {children}
      <TextField
        label={t`PIN of ${label}`}
        {...form.field('pin')}
        type="password"
        autoComplete="off"
        required
      />
      <Button {...form.submitProps}>
        <Trans>Unlock and continue</Trans>
      </Button>
    </Form>
  );
}
