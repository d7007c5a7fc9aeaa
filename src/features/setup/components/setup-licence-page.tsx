import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { setupLicenceRequestSchema } from '../../../../contract/schemas/setup.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { installLicence } from '../mutations.ts';

/** First-time setup, step 1: the signed licence text (A-01..A-05). */
export function SetupLicencePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const form = useForm(setupLicenceRequestSchema, {
    onSubmit: async (request) => {
      await installLicence(request);
      await navigate({ to: '/setup-user' });
    },
  });

  return (
    <PublicLayout title={<Trans>Set up the licence</Trans>} wide>
      <p>
        <Trans>
          Paste the license text you received from your vendor. It decides which applications and how many
          seats are available.
        </Trans>
      </p>
      <Form form={form} className="form">
        {/* Named as the request names it (`{ body }`), so the server's field errors land here. */}
        <TextAreaField
          label={t`Licence text`}
          {...form.field('body')}
          spellCheck={false}
          autoCapitalize="none"
          required
        />
        <Button {...form.submitProps}>
          <Trans>Continue</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
