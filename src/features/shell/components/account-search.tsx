import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { type RecentAccount, recentAccounts } from '../../../lib/recent-accounts.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { accountSearchQueryOptions } from '../account-switcher.ts';

interface AccountSearchProps {
  userId: string;
  activeAccountId: string;
  onSelect: (account: RecentAccount) => void;
}

const NO_ACCOUNTS: readonly RecentAccount[] = [];

/**
 * The switcher for viewers who reach more than 50 accounts: an empty input offers the recently used
 * accounts, typing searches active accounts by name on the server. Loaded only for those viewers.
 */
export function AccountSearch({ userId, activeAccountId, onSelect }: AccountSearchProps) {
  const { t } = useLingui();
  const [inputValue, setInputValue] = useState('');
  const name = useDebouncedValue(inputValue.trim());
  const search = useQuery({ ...accountSearchQueryOptions(name), enabled: name !== '' });
  const searching = inputValue.trim() !== '';

  // Read once: choosing an account switches to it, and the header then shows a fresh switcher.
  const [recent] = useState(() => recentAccounts(userId));
  const found = search.data?.items ?? NO_ACCOUNTS;
  const accounts = searching ? found : recent;
  const options = useMemo(
    () => accounts.map((account) => ({ value: account.id, label: account.display_name })),
    [accounts],
  );

  let status: string | undefined;
  let announcement: string | undefined;
  if (!searching) {
    status = recent.length === 0 ? t`Type a name to find an account.` : undefined;
  } else if (search.isError) {
    status = t`The search failed. Try again.`;
  } else if (!search.data || search.isPlaceholderData || name !== inputValue.trim()) {
    status = t`Searching…`;
  } else if (found.length === 0) {
    status = t`No active account matches this name.`;
  } else if (search.data.total > found.length) {
    const shown = found.length;
    const total = search.data.total;
    status = search.data.total_is_lower_bound
      ? t`${shown} of more than ${total} accounts shown. Type more of the name to narrow the search.`
      : t`${shown} of ${total} accounts shown. Type more of the name to narrow the search.`;
  } else {
    announcement = plural(found.length, { one: '# account found.', other: '# accounts found.' });
  }

  return (
    <Combobox
      label={t`Switch account`}
      placeholder={t`Search accounts`}
      triggerLabel={t`Show accounts`}
      onInputValueChange={setInputValue}
      options={options}
      optionsLabel={searching ? t`Accounts` : t`Recently used`}
      currentValue={activeAccountId}
      status={status}
      announcement={announcement}
      onSelect={(accountId) => {
        const account = accounts.find((candidate) => candidate.id === accountId);
        if (account) onSelect({ id: account.id, display_name: account.display_name });
      }}
    />
  );
}
