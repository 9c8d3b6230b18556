import type { ReactNode } from 'react';

// A titled panel: a section of a settings or workspace page (the account's, the storefront's invoice
// details, payouts), the page a buyer lands on back from another site (the payment's, Discord's), or a
// list screen whose heading only screen readers need (the tabs above it say it).
const looks = {
  settings: {
    section: 'flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-4 sm:p-6',
    heading: 'text-lg font-semibold text-white',
  },
  page: {
    section:
      'mx-auto flex w-full max-w-xl flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6 sm:p-8',
    heading: 'text-2xl font-bold text-white',
  },
  list: { section: 'flex flex-col gap-4', heading: 'sr-only' },
};

export function TitledSection({
  look,
  headingId,
  title,
  aside,
  children,
}: {
  /** `page`: the page's own heading (h1); `settings` and `list`: one section of several (h2). */
  look: keyof typeof looks;
  /** The heading's id (the section is labelled by it; a link can point at it). */
  headingId: string;
  title: ReactNode;
  /** Said beside the heading: a status, a count. */
  aside?: ReactNode;
  children: ReactNode;
}) {
  const Heading = look === 'page' ? 'h1' : 'h2';
  const heading = (
    <Heading id={headingId} className={looks[look].heading}>
      {title}
    </Heading>
  );
  return (
    <section aria-labelledby={headingId} className={looks[look].section}>
      {aside ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
