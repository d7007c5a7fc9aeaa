import { type ComponentPropsWithoutRef, type Ref, useImperativeHandle } from 'react';
import { useDocumentTitle } from '../lib/document-title.ts';

interface PageTitleProps extends Omit<ComponentPropsWithoutRef<'h1'>, 'id' | 'className'> {
  /** For pages that move the focus to their heading. */
  ref?: Ref<HTMLHeadingElement>;
}

/** A secure page's heading (`#page-title`, which its region is labelled by), which also titles the tab. */
export function PageTitle({ ref, children, ...props }: PageTitleProps) {
  const heading = useDocumentTitle();
  // The heading is mounted whenever the parent's ref is read: both refs name the same element.
  useImperativeHandle(ref, () => heading.current as HTMLHeadingElement, [heading]);
  return (
    <h1 id="page-title" className="page__title" ref={heading} {...props}>
      {children}
    </h1>
  );
}
