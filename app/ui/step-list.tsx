/**
 * Numbered steps, side by side on wide screens. A step written "Title: detail" shows its title in
 * bold above the detail. The numbers are the list's own (a CSS counter drawn as a badge), so without CSS the
 * browser still numbers them and a screen reader announces an ordered list.
 */
export function StepList({ steps, className = "" }: { steps: readonly string[]; className?: string }) {
  return (
    <ol className={`grid list-none gap-6 [counter-reset:step] sm:grid-cols-2 lg:grid-cols-4 ${className}`}>
      {steps.map((step) => {
        const split = step.indexOf(": ");
        return (
          <li
            key={step}
            className="relative border-t-2 border-brand-600 pt-4 [counter-increment:step] before:mb-3 before:flex before:size-8 before:items-center before:justify-center before:rounded-full before:bg-brand-700 before:text-sm before:font-bold before:text-white before:content-[counter(step)]"
          >
            {split > 0 ? (
              <>
                <strong className="block font-semibold text-ink">
                  {step.slice(0, split)}
                  <span className="sr-only">:</span>
                </strong>{" "}
                <span className="mt-1 block text-muted first-letter:uppercase">{step.slice(split + 2)}</span>
              </>
            ) : (
              step
            )}
          </li>
        );
      })}
    </ol>
  );
}
