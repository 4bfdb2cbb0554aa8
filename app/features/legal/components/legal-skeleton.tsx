/** What a legal page shows while its document loads on a client-side navigation. */
export function LegalSkeleton() {
  return (
    <div aria-busy="true" aria-live="polite" className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
      <h1 className="sr-only">Loading document...</h1>
      <div className="space-y-4 motion-safe:animate-pulse" aria-hidden="true">
        <div className="h-10 w-2/3 rounded bg-slate-200" />
        <div className="h-4 w-1/3 rounded bg-slate-200" />
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="space-y-2 pt-6">
            <div className="h-6 w-1/2 rounded bg-slate-200" />
            <div className="h-4 rounded bg-slate-100" />
            <div className="h-4 rounded bg-slate-100" />
            <div className="h-4 w-5/6 rounded bg-slate-100" />
          </div>
        ))}
      </div>
    </div>
  );
}
