import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Menu } from '../../../components/ui/menu.tsx';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { createAccountControl } from '../rules.ts';

/**
 * Create account (F-25 … F-29): a menu of standard and partner account for system scope with partner
 * accounts on, one button otherwise, nothing without the permissions to create.
 */
export function AccountsListCreateControl({ profile }: { profile: Profile }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const control = createAccountControl(profile, usePermissionFlags(), useFeatureFlags().partner_accounts);
  const online = useOnline();
  if (control === 'none') return null;
  if (!online) {
    // A new account cannot wait in the outbox; offline, the control says why it does nothing.
    return (
      <NeedsConnection>
        {(gate) => (
          <Button {...gate.controlProps}>
            <Trans>Create account</Trans>
          </Button>
        )}
      </NeedsConnection>
    );
  }
  if (control === 'button') {
    return (
      <Link to="/accounts/create-account" className="button button--primary">
        <Trans>Create account</Trans>
      </Link>
    );
  }
  return (
    <div className="accounts-list__create">
      <Menu
        trigger={
          <>
            <Trans>Create account</Trans>
            <span aria-hidden="true"> ▾</span>
          </>
        }
        sections={[
          {
            id: 'create-account',
            entries: [
              { value: 'standard', label: t`Standard account` },
              { value: 'partner', label: t`Partner account` },
            ],
          },
        ]}
        onSelect={(value) => {
          if (value === 'partner') {
            void navigate({ to: '/accounts/create-partner-account', state: { createPartner: true } });
          } else {
            void navigate({ to: '/accounts/create-account' });
          }
        }}
      />
    </div>
  );
}
