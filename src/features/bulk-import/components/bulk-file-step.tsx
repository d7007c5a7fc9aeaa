import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { BULK_USER_CSV_TEMPLATE, BULK_USER_MAX_BYTES } from '../../../../contract/user-csv.ts';
import { isValidationCode } from '../../../../contract/validation.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox, type ComboboxOption } from '../../../components/ui/combobox.tsx';
import { FileUpload } from '../../../components/ui/file-upload.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatByteSize } from '../../../lib/byte-size.ts';
import { useActiveAccountId } from '../../../lib/current-user.ts';
import { saveFile } from '../../../lib/download.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { validationMessage } from '../../../lib/validation-messages.ts';
import { useValidateBulkFile } from '../mutations.ts';
import { bulkAccountQueryOptions, bulkAccountSearchQueryOptions, bulkRolesQueryOptions } from '../queries.ts';
import type { BulkSearch } from '../search.ts';
import type { BulkNavigate } from './bulk-user-create-page.tsx';

/**
 * Where a refusal of the whole file points: a column (`file.email`), a line (`file.line.12`), a
 * cell (`file.row.3.email`) or the file.
 */
function fileProblem(error: unknown, i18n: I18n): string | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.field?.startsWith('file')) return null;
  const code = error.code ?? '';
  const sentence = isValidationCode(code)
    ? validationMessage(code, i18n)
    : i18n._(msg`The file cannot be read.`);
  if (error.field === 'file') return sentence;
  const where = error.field.slice('file.'.length);
  const line = /^line\.(\d+)$/.exec(where)?.[1];
  if (line !== undefined) return `${sentence} ${i18n._(msg`Line ${line} of the file.`)}`;
  const [, row, column] = /^row\.(\d+)\.(.+)$/.exec(where) ?? [];
  if (row !== undefined && column !== undefined) {
    return `${sentence} ${i18n._(msg`Row ${row}, column ${column}.`)}`;
  }
  return `${sentence} ${i18n._(msg`Column: ${where}.`)}`;
}

function AccountChooser({ accountId, onChange }: { accountId: string; onChange: (id: string) => void }) {
  const { t } = useLingui();
  const account = useQuery(bulkAccountQueryOptions(accountId));
  const [text, setText] = useState('');
  const searched = useDebouncedValue(text, 250);
  const found = useQuery(bulkAccountSearchQueryOptions(searched));
  const options: ComboboxOption[] = (found.data?.items ?? []).map((item) => ({
    value: item.id,
    label: item.display_name,
  }));
  const name = account.data?.display_name ?? (account.isPending ? t`Loading…` : accountId);
  return (
    <div className="bulk-file__account">
      <p className="bulk-file__chosen" id="bulk-account">
        <Trans>
          Account: <strong>{name}</strong>
        </Trans>
      </p>
      <Combobox
        label={t`Choose another account`}
        placeholder={t`Search accounts by name`}
        triggerLabel={t`Show accounts`}
        onInputValueChange={setText}
        options={options}
        optionsLabel={t`Accounts`}
        currentValue={accountId}
        status={searched.trim() !== '' && found.data?.total === 0 ? t`No account has this name.` : undefined}
        onSelect={onChange}
      />
    </div>
  );
}

function RoleChoices({
  accountId,
  chosen,
  onToggle,
}: {
  accountId: string;
  chosen: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
}) {
  const flags = useFeatureFlags();
  const roles = useQuery(bulkRolesQueryOptions(accountId));
  // With the roles feature off, only built-in roles are offered (decision 039 §3).
  const offered = (roles.data?.items ?? []).filter((role) => flags.roles || role.built_in);
  return (
    <fieldset className="bulk-file__roles">
      <legend className="field__label">
        <Trans>Default roles</Trans>
      </legend>
      <p className="field__hint">
        <Trans>Rows with an empty roles cell get these roles.</Trans>
      </p>
      {roles.isPending ? (
        <p role="status">
          <Trans>Loading roles…</Trans>
        </p>
      ) : roles.isError ? (
        <ServerErrorAlert error={roles.error} />
      ) : (
        <ul className="bulk-file__role-list">
          {offered.map((role) => (
            <li key={role.id}>
              <label className="bulk-file__checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(role.id)}
                  onChange={(event) => onToggle(role.id, event.target.checked)}
                />
                {role.name}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** Step 1: the account the users join, the roles rows without any get, the file and the invitations. */
export function BulkFileStep({ search, navigate }: { search: BulkSearch; navigate: BulkNavigate }) {
  const { t, i18n } = useLingui();
  const activeAccountId = useActiveAccountId();
  const [accountId, setAccountId] = useState(activeAccountId);
  const [roleIds, setRoleIds] = useState<ReadonlySet<string>>(new Set());
  const [file, setFile] = useState<File | null>(null);
  const [missingFile, setMissingFile] = useState(false);
  const validate = useValidateBulkFile();
  const sendInvitations = search.invitations !== 'off';
  const problem = fileProblem(validate.error, i18n);
  const limit = formatByteSize(BULK_USER_MAX_BYTES, i18n.locale);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (file === null) {
      setMissingFile(true);
      return;
    }
    try {
      const job = await validate.mutateAsync({ accountId, roleIds: [...roleIds], file });
      navigate({ ...search, job: job.id, rows: undefined, page: undefined }, 2);
    } catch {
      // Shown below the file or as the page's error.
    }
  };

  return (
    <form className="form bulk-file" onSubmit={submit} aria-labelledby="page-title" noValidate>
      <AccountChooser
        accountId={accountId}
        onChange={(id) => {
          setAccountId(id);
          setRoleIds(new Set());
        }}
      />
      <RoleChoices
        accountId={accountId}
        chosen={roleIds}
        onToggle={(id, on) =>
          setRoleIds((current) => {
            const next = new Set(current);
            if (on) next.add(id);
            else next.delete(id);
            return next;
          })
        }
      />
      <FileUpload
        label={<Trans>CSV file</Trans>}
        dropLabel={t`Drop a CSV file here, or`}
        chooseLabel={<Trans>Choose a file</Trans>}
        removeLabel={t`Remove the file`}
        accept={['text/csv', '.csv']}
        maxFileSize={BULK_USER_MAX_BYTES}
        description={
          <Trans>
            One user a row under a header row: first_name, last_name, email, user_name, and optionally phone,
            locale and roles (several separated by |). At most 10,000 rows and {limit}, saved as CSV UTF-8.
          </Trans>
        }
        error={missingFile && file === null ? t`Choose a CSV file.` : (problem ?? undefined)}
        onFileChange={(chosen) => {
          setFile(chosen);
          setMissingFile(false);
          validate.reset();
        }}
      />
      <p>
        <Button
          variant="link"
          onClick={() =>
            saveFile(new Blob([BULK_USER_CSV_TEMPLATE], { type: 'text/csv' }), 'users-template.csv')
          }
        >
          <Trans>Download the template</Trans>
        </Button>
      </p>
      <label className="bulk-file__checkbox">
        <input
          type="checkbox"
          checked={sendInvitations}
          onChange={(event) =>
            navigate({ ...search, invitations: event.target.checked ? undefined : 'off' }, 1, {
              replace: true,
            })
          }
        />
        <Trans>Send invitations</Trans>
      </label>
      <p className="field__hint">
        <Trans>
          Each new user gets an e-mail to set their password. Without it, resend invitations later.
        </Trans>
      </p>
      {validate.isError && problem === null ? <ServerErrorAlert error={validate.error} /> : null}
      <div className="form__actions">
        <NeedsConnection>
          {(gate) => (
            <Button type="submit" busy={validate.isPending} {...gate.controlProps}>
              <Trans>Check the file</Trans>
            </Button>
          )}
        </NeedsConnection>
      </div>
    </form>
  );
}
