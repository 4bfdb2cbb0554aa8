import { Suspense, type ReactNode } from "react";
import { Footer } from "~/ui/footer";
import { Header } from "~/ui/header";
import type { SiteNavigation } from "~/config/site";

/**
 * The public site's frame: header, the page as the main landmark, footer. Each is its own Suspense
 * boundary, so React hydrates them as separate pieces: it yields to the browser between them, and
 * a click on one that is not hydrated yet hydrates that one first instead of the whole page at once.
 * They never show a fallback: the server sends them complete (app/entry.server.tsx). `navigation`
 * is the menus of the page's language from the root's data (the code's defaults are not in the
 * browser's code); without it (the root's own loader failed) the frame has no menus.
 */
export function SiteFrame({ children, navigation }: { children: ReactNode; navigation?: SiteNavigation }) {
  return (
    <>
      <Suspense>
        <Header menus={navigation?.header ?? []} />
      </Suspense>
      <main id="main" className="flex-1">
        <Suspense>{children}</Suspense>
      </main>
      <Suspense>
        <Footer columns={navigation?.footer ?? []} shortLinks={navigation?.["footer-links"] ?? []} />
      </Suspense>
    </>
  );
}
