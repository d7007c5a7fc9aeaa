import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { ACCOUNTS_LIST_PATH } from '../../../../contract/paths.ts';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { setupUserRequestSchema } from '../../../../contract/schemas/setup.ts';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { createAdministrator } from '../mutations.ts';

/** First-time setup, step 2: the first system administrator (A-06..A-20, A-26). */
export function SetupUserPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const form = useForm(setupUserRequestSchema, {
    onSubmit: async (request) => {
      await createAdministrator(request);
      await navigate({
        to: '/login',
        search: { state: encodeSignInState({ return_path: ACCOUNTS_LIST_PATH }) },
      });
    },
  });

  return (
    <PublicLayout title={<Trans>Create the first administrator</Trans>} wide>
      <p>
        <Trans>This person administers the whole platform and can invite everyone else.</Trans>
      </p>
      <Form form={form} className="form">
        <div className="form__grid">
          <TextField label={t`First name`} {...form.field('first_name')} autoComplete="given-name" required />
          <TextField label={t`Last name`} {...form.field('last_name')} autoComplete="family-name" required />
        </div>
        <TextField label={t`Email`} {...form.field('email')} type="email" autoComplete="email" required />
        <TextField
          label={t`Username`}
          {...form.field('user_name')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <NewPasswordFields form={form} passwordLabel={t`Password`} />
        <Button {...form.submitProps}>
          <Trans>Create administrator</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
