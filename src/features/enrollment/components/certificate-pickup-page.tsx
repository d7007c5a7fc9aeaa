import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { certificatePickupFormSchema, certificatePickupIssues, enrollmentLinkParts } from '../schemas.ts';

/**
 * /certificate-pickup (console overview §2): a certificate issued but never installed (the connection
 * broke before the import, or the token is now on another computer) is picked up with the mailed
 * link or the id and code it carries, then installed as from the link itself.
 */
export function CertificatePickupPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const form = useForm(certificatePickupFormSchema, {
    refine: certificatePickupIssues,
    onSubmit: async ({ link, enrollment_id, code }) => {
      const parts = enrollmentLinkParts(link) ?? { id: enrollment_id, code };
      await navigate({
        to: '/enrollment-link/$enrollmentId/$enrollmentLinkSecret',
        params: { enrollmentId: parts.id, enrollmentLinkSecret: parts.code },
      });
    },
  });
  return (
    <PublicLayout wide title={<Trans>Pick up your certificate</Trans>}>
      <p>
        <Trans>
          Your certificate was issued but is not in its keystore yet? Paste the enrollment link from your
          mail, or type the enrollment ID and code it contains.
        </Trans>
      </p>
      <Form form={form} className="form">
        <TextField label={t`Enrollment link`} {...form.field('link')} type="url" autoComplete="off" />
        <p>
          <Trans>Or</Trans>
        </p>
        <TextField label={t`Enrollment ID`} {...form.field('enrollment_id')} autoComplete="off" />
        <TextField label={t`Code`} {...form.field('code')} autoComplete="off" />
        <Button {...form.submitProps}>
          <Trans>Continue</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
