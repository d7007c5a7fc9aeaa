import { Trans } from '@lingui/react/macro';
import { SectionPlaceholder } from '../../../components/section-placeholder.tsx';

export function AccountsPage() {
  return <SectionPlaceholder title={<Trans>Accounts</Trans>} />;
}
