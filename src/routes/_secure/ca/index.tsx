import { createFileRoute, notFound } from '@tanstack/react-router';

/**
 * The certificate authority only groups its sections and has no page of its own (its breadcrumb is
 * text): its address stays not found now that the area has a layout route, which would otherwise
 * match it and draw an empty page.
 */
export const Route = createFileRoute('/_secure/ca/')({
  beforeLoad: () => {
    throw notFound();
  },
});
