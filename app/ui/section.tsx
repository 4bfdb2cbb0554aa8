import type { ReactNode } from "react";

/** A page section with a heading; `id` doubles as the heading's anchor. */
export function Section({
  title,
  intro,
  children,
  id,
  className = "",
  headingLevel = 2,
}: {
  title: string;
  intro?: ReactNode;
  children?: ReactNode;
  id?: string;
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section aria-labelledby={headingId} id={id} className={`mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-14 ${className}`}>
      <Heading id={headingId} className="text-2xl font-bold tracking-tight sm:text-3xl">
        {title}
      </Heading>
      {intro ? <div className="mt-3 max-w-3xl text-lg text-muted">{intro}</div> : null}
      {children ? <div className="mt-8">{children}</div> : null}
    </section>
  );
}

/**
 * The coloured band at the top of every page, holding its one h1. `aside` (a product picture)
 * takes the right half on wide screens and follows the text on narrow ones.
 */
export function PageHero({
  eyebrow,
  title,
  children,
  aside,
}: {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white">
      <div
        className={`mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20 ${aside ? "grid items-center gap-12 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:gap-14" : ""}`}
      >
        <div>
          {eyebrow ? <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">{eyebrow}</p> : null}
          <h1 className="mt-2 max-w-4xl text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
          {children ? <div className="mt-5 max-w-3xl text-lg text-muted">{children}</div> : null}
        </div>
        {aside}
      </div>
    </div>
  );
}
