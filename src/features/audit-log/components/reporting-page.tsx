import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import './audit-log.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** Reporting: what the section offers, one card a report. */
export function ReportingPage() {
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Reporting</Trans>
      </PageTitle>
      <ul className="reporting__cards">
        <li className="reporting__card">
          <h2>
            <Link to="/reporting/logging">
              <Trans>Logging</Trans>
            </Link>
          </h2>
          <p>
            <Trans>
              Every change and sign-in in the accounts you reach: who did what, when, from where and with what
              result. Filter it, verify that an event was not altered or removed, and export it as CSV or JSON
              Lines to check it without the platform.
            </Trans>
          </p>
        </li>
      </ul>
    </section>
  );
}
