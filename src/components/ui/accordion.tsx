import { Accordion as ArkAccordion } from '@ark-ui/react/accordion';
import type { ReactNode } from 'react';

export interface AccordionSection {
  /** Unique on the page: it is also the id of the section's heading, so `#value` links land on it. */
  value: string;
  title: ReactNode;
  content: ReactNode;
}

interface AccordionProps {
  sections: readonly AccordionSection[];
  /** The expanded sections; controlled so that links elsewhere on the page can open one. */
  value: readonly string[];
  onValueChange: (value: string[]) => void;
  /** Level of the heading around each trigger, so the sections sit in the page's outline. */
  headingLevel?: 2 | 3;
}

/** The id of a section's trigger button, for moving focus to a section from elsewhere on the page. */
export function accordionTriggerId(value: string): string {
  return `${value}-trigger`;
}

/**
 * Sections that expand and collapse independently (WAI-ARIA accordion pattern from Ark UI): each
 * trigger is a button inside a heading, with aria-expanded and aria-controls; arrow keys, Home and
 * End move between triggers.
 */
export function Accordion({ sections, value, onValueChange, headingLevel = 2 }: AccordionProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ArkAccordion.Root
      className="accordion"
      multiple
      collapsible
      value={[...value]}
      onValueChange={(details) => onValueChange(details.value)}
      ids={{ itemTrigger: accordionTriggerId }}
    >
      {sections.map((section) => (
        <ArkAccordion.Item key={section.value} value={section.value} className="accordion__item">
          <Heading id={section.value} className="accordion__heading">
            <ArkAccordion.ItemTrigger className="accordion__trigger">
              <span className="accordion__title">{section.title}</span>
              <ArkAccordion.ItemIndicator className="accordion__indicator">▾</ArkAccordion.ItemIndicator>
            </ArkAccordion.ItemTrigger>
          </Heading>
          <ArkAccordion.ItemContent className="accordion__content">
            {section.content}
          </ArkAccordion.ItemContent>
        </ArkAccordion.Item>
      ))}
    </ArkAccordion.Root>
  );
}
