// PLACEHOLDER: replaced by the issue that builds this page.
import { PageHero } from "~/components/ui/section";

export default function Page() {
  return <PageHero title="Documentation" />;
}
