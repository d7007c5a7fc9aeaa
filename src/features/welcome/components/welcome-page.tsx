import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import type { WelcomeProduct } from '../products.ts';

/** Product names stay in English; what they do is translated. */
const PRODUCTS: Readonly<Record<WelcomeProduct, { name: string; summary: MessageDescriptor }>> = {
  documentmanager: {
    name: 'Document Manager',
    summary: msg`Sign documents with trusted certificates and keep a verifiable record of every signature.`,
  },
  mpki: {
    name: 'Managed PKI',
    summary: msg`Issue, renew and revoke certificates for people, servers and services from one place.`,
  },
  iot: {
    name: 'IoT Trust',
    summary: msg`Give every connected device its own identity and keep its certificates up to date at scale.`,
  },
  signingmanager: {
    name: 'Signing Manager',
    summary: msg`Sign code and software releases with keys that never leave protected storage.`,
  },
};

interface WelcomePageProps {
  product: WelcomeProduct;
  /** Set when the user was sent here for lack of access (the no-access banner). */
  message: string | undefined;
  contactUrl: string | null;
}

/** Shown to users without a licence or application access (overview §1, §2). */
export function WelcomePage({ product, message, contactUrl }: WelcomePageProps) {
  const { i18n } = useLingui();
  const { name, summary } = PRODUCTS[product];
  return (
    <PublicLayout title={name} wide>
      {message ? (
        <Alert tone="warning">
          <p>
            <Trans>You do not have access to this application.</Trans>
          </p>
          <p>{message}</p>
        </Alert>
      ) : null}
      <p>{i18n._(summary)}</p>
      <p>
        <Trans>
          It is not part of your organization's license yet. Talk to us to add it or to try it out.
        </Trans>
      </p>
      {contactUrl ? (
        <p>
          <a className="button button--primary" href={contactUrl} rel="noopener noreferrer" target="_blank">
            <Trans>Contact us</Trans>
          </a>
        </p>
      ) : (
        <p>
          <Trans>Ask your platform administrator for the contact details of your vendor.</Trans>
        </p>
      )}
    </PublicLayout>
  );
}
