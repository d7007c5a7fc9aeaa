import { Trans, useLingui } from '@lingui/react/macro';
import type { KeyParameters } from '../../../../contract/trust-agent/entities.ts';
import { SelectField } from '../../../components/ui/field.tsx';
import type { KeyTypeChoice } from '../key-types.ts';

/** A key in the enrollee's words: "RSA, 2048 bits", "ECDSA, curve P-256". */
export function useKeyLabel(): (key: KeyParameters) => string {
  const { t } = useLingui();
  return (key) => {
    if (key.algorithm === 'RSA') {
      const size = key.keySize;
      return t`RSA, ${size} bits`;
    }
    const curve = key.curve;
    return t`ECDSA, curve ${curve}`;
  };
}

interface KeyTypeFieldProps {
  choices: readonly KeyTypeChoice[];
  chosen: KeyTypeChoice;
  onChoose: (name: string) => void;
}

/** The key type of the new key: a select among several, the one there is shown as it is. */
export function KeyTypeField({ choices, chosen, onChoose }: KeyTypeFieldProps) {
  const { t } = useLingui();
  const label = useKeyLabel();
  if (choices.length === 1) {
    const keyType = label(chosen.key);
    return (
      <p>
        <Trans>Key type: {keyType}</Trans>
      </p>
    );
  }
  return (
    <SelectField
      label={t`Key type`}
      description={t`The key types this certificate accepts that the software keystore makes.`}
      options={choices.map((choice) => ({ value: choice.name, label: label(choice.key) }))}
      value={chosen.name}
      onChange={(event) => onChoose(event.currentTarget.value)}
    />
  );
}
