import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { type PasswordChange, passwordChangeSchema } from '../../../../contract/schemas/users.ts';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { useForm } from '../../../lib/form/use-form.ts';
import { useGoBack } from '../../../lib/page-mode.ts';
import { useChangePassword } from '../mutations.ts';

/**
 * Change one's own password (decision 039 §7): the current one, the new one and its repetition. The
 * server ends every other session of the user; this one stays signed in.
 */
export function ChangePasswordPage() {
  const { t } = useLingui();
  const profile = useProfile();
  const navigate = useNavigate();
  const goBack = useGoBack('edit');
  const change = useChangePassword(profile.id);
  const form = useForm(passwordChangeSchema, {
    onSubmit: async (request: PasswordChange) => {
      await change.mutateAsync(request);
      notify('success', t`Password changed. You were signed out everywhere else.`);
      void navigate({ to: '/profile' });
    },
  });
  return (
    <section className="page change-password" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Change password</Trans>
      </PageTitle>
      <p>
        <Trans>Changing your password signs you out on every other device and browser.</Trans>
      </p>
      <Form form={form} className="form" aria-labelledby="page-title">
        {/* Lets password managers tie the new password to this user. */}
        <input type="hidden" name="username" autoComplete="username" value={profile.user_name} readOnly />
        <TextField
          label={t`Current password`}
          {...form.field('current_password')}
          type="password"
          autoComplete="current-password"
          required
        />
        <NewPasswordFields form={form} repeatLabel={t`Repeat new password`} />
        <div className="form__actions">
          <NeedsConnection>
            {(gate) => (
              <Button {...form.submitProps} {...gate.controlProps}>
                <Trans>Change password</Trans>
              </Button>
            )}
          </NeedsConnection>
          <Button variant="secondary" onClick={goBack}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </Form>
    </section>
  );
}
