import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { LoginCustomization } from '../../../../contract/schemas/identity.ts';
import { usePublicResource } from '../../../lib/public-data.ts';
import { loginCustomization } from '../queries.ts';

const LINK_LABELS: Readonly<Record<keyof LoginCustomization['urls'], MessageDescriptor>> = {
  termsOfUse: msg`Terms of use`,
  privacyPolicy: msg`Privacy policy`,
  legalRepository: msg`Legal repository`,
  webtrustAudit: msg`WebTrust audit`,
  support: msg`Support`,
  contactUs: msg`Contact us`,
};

/** Links and copyright from the login customization (B-04, B-05); links not configured are left out. */
export function SignInFooter() {
  const { i18n, t } = useLingui();
  const { data } = usePublicResource(loginCustomization);
  if (!data) return null;
  const links = (Object.keys(LINK_LABELS) as (keyof LoginCustomization['urls'])[]).flatMap((key) => {
    const href = data.urls[key];
    return href ? [{ key, href, label: i18n._(LINK_LABELS[key]) }] : [];
  });
  return (
    <>
      {links.length > 0 ? (
        <nav aria-label={t`Legal and support`}>
          <ul className="public__links">
            {links.map((link) => (
              <li key={link.key}>
                <a href={link.href} rel="noopener noreferrer" target="_blank">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {data.copyright ? <p className="public__copyright">{data.copyright}</p> : null}
    </>
  );
}
