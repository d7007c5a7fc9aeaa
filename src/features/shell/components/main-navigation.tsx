import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { SECTION_LABELS } from '../labels.ts';
import type { NavigationItem } from '../navigation.ts';

function NavigationLink({ item }: { item: NavigationItem }) {
  const { i18n } = useLingui();
  const label = i18n._(SECTION_LABELS[item.id]);
  if ('href' in item.target) {
    return (
      <a className="nav__link" href={item.target.href}>
        {label}
      </a>
    );
  }
  return (
    <Link
      className="nav__link"
      to={item.target.to}
      activeProps={{ 'aria-current': 'page', className: 'nav__link nav__link--active' }}
      activeOptions={{ exact: item.children.length > 0 }}
    >
      {label}
    </Link>
  );
}

export function MainNavigation({ items }: { items: readonly NavigationItem[] }) {
  const { t } = useLingui();
  return (
    <nav aria-label={t`Main navigation`} className="nav">
      <ul className="nav__list">
        {items.map((item) => (
          <li key={item.id}>
            <NavigationLink item={item} />
            {item.children.length > 0 ? (
              <ul className="nav__sublist">
                {item.children.map((child) => (
                  <li key={child.id}>
                    <NavigationLink item={child} />
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
