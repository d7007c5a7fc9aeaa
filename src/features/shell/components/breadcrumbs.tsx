import { useLingui } from '@lingui/react/macro';
import { Link, useLocation } from '@tanstack/react-router';
import { BackButton } from '../../../components/back-button.tsx';
import { breadcrumbsFor, showsBackLinkInsteadOfBreadcrumbs } from '../breadcrumbs.ts';

/** Breadcrumbs of the current page, or the Back link on administrator pages (C-15..C-17). */
export function Breadcrumbs() {
  const { t, i18n } = useLingui();
  const { pathname } = useLocation();
  if (showsBackLinkInsteadOfBreadcrumbs(pathname)) return <BackButton />;
  const crumbs = breadcrumbsFor(pathname);
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label={t`Breadcrumb`} className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => {
          const label = i18n._(crumb.label);
          const isCurrent = index === crumbs.length - 1;
          return (
            <li key={crumb.path}>
              {isCurrent ? (
                <span aria-current="page" aria-disabled={crumb.disabled || undefined}>
                  {label}
                </span>
              ) : crumb.disabled ? (
                <span aria-disabled="true" className="breadcrumbs__disabled">
                  {label}
                </span>
              ) : (
                <Link to={crumb.path}>{label}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
