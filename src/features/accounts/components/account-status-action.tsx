import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TenantSummary } from '../../../../contract/schemas/tenants.ts';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useChangeAccountStatus } from '../mutations.ts';
import { accountKeys } from '../queries.ts';

type StatusAccount = Pick<TenantSummary, 'id' | 'name' | 'active' | 'version'>;

/**
 * Deactivate or Reactivate, whichever the account's status calls for (decision 017), after a
 * confirmation that says what becomes of the account's users. Needs a connection, as deletion does.
 */
export function AccountStatusAction({ account }: { account: StatusAccount }) {
  const [open, setOpen] = useState(false);
  const name = account.name;
  const label = account.active ? <Trans>Deactivate account</Trans> : <Trans>Reactivate account</Trans>;
  return (
    <>
      <NeedsConnection>
        {(gate) => (
          <Button
            variant="secondary"
            className={account.active ? 'button--danger-outline' : undefined}
            onClick={() => setOpen(true)}
            {...gate.controlProps}
          >
            {label}
            {/* In the list every row has this button: the name, read after the words, tells them apart. */}
            <span className="visually-hidden"> {name}</span>
          </Button>
        )}
      </NeedsConnection>
      <AccountStatusDialog account={account} open={open} onOpenChange={setOpen} />
    </>
  );
}

interface AccountStatusDialogProps {
  account: StatusAccount;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The confirmation: an alert dialog a stray click outside does not dismiss, Cancel first so a
 * reflexive Enter changes nothing, and a failure shown inside so the user can try again or cancel.
 */
export function AccountStatusDialog({ account, open, onOpenChange }: AccountStatusDialogProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const change = useChangeAccountStatus(account.id);
  const name = account.name;
  const deactivating = account.active;
  const changeOpen = (next: boolean) => {
    if (!next) change.reset();
    onOpenChange(next);
  };
  const reload = () => {
    changeOpen(false);
    void queryClient.invalidateQueries({ queryKey: accountKeys.all() });
  };
  const confirm = () => {
    if (change.isPending) return;
    change.mutate(
      { active: !deactivating, version: account.version },
      {
        onSuccess: () => {
          notify('success', deactivating ? t`Account deactivated.` : t`Account reactivated.`);
          changeOpen(false);
        },
      },
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      role="alertdialog"
      title={deactivating ? <Trans>Deactivate account</Trans> : <Trans>Reactivate account</Trans>}
      description={
        deactivating ? (
          <Trans>
            The account {name} will be deactivated. Its users are signed out at once. When they sign in again,
            they only see that their account has expired, until it is reactivated.
          </Trans>
        ) : (
          <Trans>
            The account {name} will be active again. Its users get back what their roles allow the next time
            the console asks the server.
          </Trans>
        )
      }
    >
      {change.error ? <FormErrorAlert error={change.error} onReload={reload} /> : null}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={() => changeOpen(false)}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          className={deactivating ? 'button--danger' : undefined}
          busy={change.isPending}
          onClick={confirm}
        >
          {deactivating ? <Trans>Deactivate account</Trans> : <Trans>Reactivate account</Trans>}
        </Button>
      </div>
    </Dialog>
  );
}
