import type { ReactNode } from "react";
import { Footer } from "~/components/footer";
import { Header } from "~/components/header";

/** The public site's frame: header, the page as the main landmark, footer. */
export function SiteFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <Header />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
    </>
  );
}
