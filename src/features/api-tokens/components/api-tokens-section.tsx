import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  type ApiToken,
  type ApiTokenCreated,
  apiTokenCreateSchema,
  apiTokenEndDateIssue,
  apiTokenUpdateSchema,
} from '../../../../contract/schemas/api-tokens.ts';
import { CreatedToken } from '../../../components/created-token.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form, FormErrorAlert } from '../../../components/ui/form.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate, parseCalendarDate, today, userDate } from '../../../lib/dates.ts';
import { type FormState, type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { useCreateApiToken, useRevokeApiToken, useUpdateApiToken } from '../mutations.ts';
import { apiTokenListQueryOptions, type TokenOwner } from '../queries.ts';
import './api-tokens.css';

/** The server's today: end dates are calendar days in UTC (decision 018 §2). */
const utcToday = () => today('UTC').toString();

/** A new token's proposed lifetime (decision 018 §6): a token is meant to be replaced, not kept. */
const PROPOSED_LIFETIME_DAYS = 90;

/** The end date a new token's form proposes: 90 days on, or the owner's own end date if sooner. */
function proposedEndDate(ownerEndDate: string | null): string {
  const proposed = today('UTC').add({ days: PROPOSED_LIFETIME_DAYS }).toString();
  return ownerEndDate !== null && ownerEndDate < proposed ? ownerEndDate : proposed;
}

const IN_USE_MESSAGES = { name: msg`You already have an active token with this name.` };

/** An empty date input means no end date. */
function endDateOf(values: FormValues): string | null {
  return values.end_date ? values.end_date : null;
}

function endDateRule(values: FormValues) {
  const issue = apiTokenEndDateIssue(endDateOf(values), utcToday());
  return issue ? { end_date: issue } : {};
}

/** A calendar day of the API (`2026-12-31`) as the signed-in user writes dates. */
function useCalendarDay(): (value: string) => string {
  const { i18n } = useLingui();
  const viewer = useProfile();
  return (value) => {
    const date = parseCalendarDate(value);
    return date ? formatUserDate(date, viewer.date_format, i18n.locale) : value;
  };
}

/**
 * API tokens on a details page (decision 039 §4, §5): the signed-in person's own, or a service
 * user's for whoever may change it. The active ones, making one (its value shown once), changing its
 * end date and revoking it.
 */
export function ApiTokensSection({
  owner,
  ownerEndDate = null,
}: {
  owner: TokenOwner;
  /** A service user's end date, past which none of its tokens may run. */
  ownerEndDate?: string | null;
}) {
  const tokens = useQuery(apiTokenListQueryOptions(owner));
  const service = owner.kind === 'service';
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <section aria-labelledby="api-tokens" className="api-tokens">
      <div className="api-tokens__heading">
        <h2 id="api-tokens">
          <Trans>API tokens</Trans>
        </h2>
        <NeedsConnection>
          {(gate) => (
            <Button {...gate.controlProps} onClick={() => setCreating(true)}>
              <Trans>Create API token</Trans>
            </Button>
          )}
        </NeedsConnection>
      </div>
      <p className="api-tokens__hint">
        {service ? (
          <Trans>
            An API token lets a script call the API as this service user, with its permissions. Keep it
            secret, and revoke it when it is no longer needed.
          </Trans>
        ) : (
          <Trans>
            An API token lets a script call the API as you, with your permissions. Keep it secret, and revoke
            it when it is no longer needed.
          </Trans>
        )}
      </p>
      <QueryStatus
        query={tokens}
        pendingText={<Trans>Loading API tokens…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: service ? (
            <Trans>This service user has no active API token.</Trans>
          ) : (
            <Trans>You have no active API token.</Trans>
          ),
        }}
      >
        {({ items }) => <TokenTable tokens={items} onEdit={setEditing} onRevoke={setRevoking} />}
      </QueryStatus>
      <CreateTokenDialog
        owner={owner}
        proposedEndDate={proposedEndDate(ownerEndDate)}
        open={creating}
        onOpenChange={setCreating}
      />
      <EditEndDateDialog owner={owner} token={editing} onClose={() => setEditing(null)} />
      <RevokeTokenDialog owner={owner} token={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

function TokenTable({
  tokens,
  onEdit,
  onRevoke,
}: {
  tokens: readonly ApiToken[];
  onEdit: (token: ApiToken) => void;
  onRevoke: (token: ApiToken) => void;
}) {
  const { i18n, t } = useLingui();
  const viewer = useProfile();
  const day = useCalendarDay();
  return (
    <TableFrame label={t`API tokens table`}>
      <table className="list-table api-tokens__table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Name</Trans>
            </th>
            <th scope="col">
              <Trans>Token</Trans>
            </th>
            <th scope="col">
              <Trans>Created</Trans>
            </th>
            <th scope="col">
              <Trans>End date</Trans>
            </th>
            <th scope="col">
              <Trans>Last used</Trans>
            </th>
            <th scope="col">
              <Trans>Actions</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const name = token.name;
            return (
              <tr key={token.id}>
                <th scope="row">{name}</th>
                <td>
                  <code>…{token.hint}</code>
                </td>
                <td>{userDate(token.created_at, viewer.date_format, i18n.locale)}</td>
                <td>{token.end_date === null ? <Trans>No end date</Trans> : day(token.end_date)}</td>
                <td>
                  {token.last_used_at === null ? (
                    <Trans>Never</Trans>
                  ) : (
                    userDate(token.last_used_at, viewer.date_format, i18n.locale)
                  )}
                </td>
                <td className="api-tokens__actions">
                  <NeedsConnection>
                    {(gate) => (
                      <Button
                        variant="link"
                        aria-label={t`Edit end date of ${name}`}
                        {...gate.controlProps}
                        onClick={() => onEdit(token)}
                      >
                        <Trans>Edit end date</Trans>
                      </Button>
                    )}
                  </NeedsConnection>
                  <NeedsConnection>
                    {(gate) => (
                      <Button
                        variant="link"
                        aria-label={t`Revoke ${name}`}
                        {...gate.controlProps}
                        onClick={() => onRevoke(token)}
                      >
                        <Trans>Revoke</Trans>
                      </Button>
                    )}
                  </NeedsConnection>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableFrame>
  );
}

function CreateTokenDialog({
  owner,
  proposedEndDate,
  open,
  onOpenChange,
}: {
  owner: TokenOwner;
  proposedEndDate: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateApiToken(owner);
  // The token lives here and in no query or storage; closing the dialog forgets it.
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const changeOpen = (next: boolean) => {
    if (!next) {
      setCreated(null);
      create.reset();
    }
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      // Once the value shows, a stray click outside must not lose it before it was copied.
      role={created ? 'alertdialog' : 'dialog'}
      title={created ? <Trans>Your new API token</Trans> : <Trans>Create API token</Trans>}
    >
      {created ? (
        <CreatedToken name={created.name} value={created.value} onDone={() => changeOpen(false)} />
      ) : (
        <CreateTokenForm
          proposedEndDate={proposedEndDate}
          onSubmit={async (request) => setCreated(await create.mutateAsync(request))}
          onCancel={() => changeOpen(false)}
        />
      )}
    </Dialog>
  );
}

/** The end date and the dialog's buttons, the same in creating a token and changing its end date. */
function EndDateAndActions({
  field,
  defaultValue,
  submitProps,
  submitLabel,
  onCancel,
}: {
  field: ReturnType<FormState['field']>;
  defaultValue?: string;
  submitProps: FormState['submitProps'];
  submitLabel: ReactNode;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`End date`}
        description={t`Leave empty for a token without an end date.`}
        type="date"
        defaultValue={defaultValue}
        {...field}
      />
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button {...submitProps}>{submitLabel}</Button>
      </div>
    </>
  );
}

function CreateTokenForm({
  proposedEndDate,
  onSubmit,
  onCancel,
}: {
  proposedEndDate: string;
  onSubmit: (request: { name: string; end_date: string | null }) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const form = useForm(apiTokenCreateSchema, {
    onSubmit,
    request: (values) => ({ name: values.name ?? '', end_date: endDateOf(values) }),
    refine: endDateRule,
    inUseMessages: IN_USE_MESSAGES,
  });
  return (
    <Form form={form} className="dialog__form">
      <TextField label={t`Name`} {...form.field('name')} required autoComplete="off" maxLength={100} />
      <EndDateAndActions
        field={form.field('end_date')}
        defaultValue={proposedEndDate}
        submitProps={form.submitProps}
        submitLabel={<Trans>Create</Trans>}
        onCancel={onCancel}
      />
    </Form>
  );
}

/** A dialog about one token of the list, open while `token` is set. */
interface TokenDialogProps {
  owner: TokenOwner;
  token: ApiToken | null;
  onClose: () => void;
}

function EditEndDateDialog({ owner, token, onClose }: TokenDialogProps) {
  const { t } = useLingui();
  const day = useCalendarDay();
  const update = useUpdateApiToken(owner);
  const close = () => {
    update.reset();
    onClose();
  };
  const name = token?.name ?? '';
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={<Trans>End date of {name}</Trans>}
    >
      {token ? (
        <EditEndDateForm
          key={token.version}
          token={token}
          onSubmit={async (request) => {
            await update.mutateAsync({ token, update: request });
            const endDate = request.end_date === null ? null : day(request.end_date);
            notify(
              'success',
              endDate === null ? t`${name} now has no end date.` : t`${name} now ends on ${endDate}.`,
            );
            close();
          }}
          onCancel={close}
        />
      ) : null}
    </Dialog>
  );
}

function EditEndDateForm({
  token,
  onSubmit,
  onCancel,
}: {
  token: ApiToken;
  onSubmit: (request: { end_date: string | null }) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm(apiTokenUpdateSchema, {
    onSubmit,
    request: (values) => ({ end_date: endDateOf(values) }),
    refine: endDateRule,
  });
  return (
    <Form form={form} className="dialog__form">
      <EndDateAndActions
        field={form.field('end_date')}
        defaultValue={token.end_date ?? ''}
        submitProps={form.submitProps}
        submitLabel={<Trans>Save</Trans>}
        onCancel={onCancel}
      />
    </Form>
  );
}

function RevokeTokenDialog({ owner, token, onClose }: TokenDialogProps) {
  const { t } = useLingui();
  const revoke = useRevokeApiToken(owner);
  const close = () => {
    revoke.reset();
    onClose();
  };
  const name = token?.name ?? '';
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      role="alertdialog"
      title={<Trans>Revoke {name}?</Trans>}
      description={
        <Trans>Scripts using this token will be refused from their next call. This cannot be undone.</Trans>
      }
    >
      <div className="dialog__form">
        {revoke.error ? <FormErrorAlert error={revoke.error} /> : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            className="button--danger"
            busy={revoke.isPending}
            onClick={() => {
              if (token && !revoke.isPending) {
                revoke.mutate(token, {
                  onSuccess: () => {
                    notify('success', t`${name} revoked.`);
                    close();
                  },
                });
              }
            }}
          >
            <Trans>Revoke</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
