import { Suspense, type ReactNode } from "react";
import { Footer } from "~/ui/footer";
import { Header } from "~/ui/header";

/**
 * The public site's frame: header, the page as the main landmark, footer. Each is its own Suspense
 * boundary, so React hydrates them as separate pieces: it yields to the browser between them, and
 * a click on one that is not hydrated yet hydrates that one first instead of the whole page at once.
 * They never show a fallback: the server sends them complete (app/entry.server.tsx).
 */
export function SiteFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <Suspense>
        <Header />
      </Suspense>
      <main id="main" className="flex-1">
        <Suspense>{children}</Suspense>
      </main>
      <Suspense>
        <Footer />
      </Suspense>
    </>
  );
}
