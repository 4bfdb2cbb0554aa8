import { useLocation } from "react-router";
import type { Route } from "./+types/company.careers";
import { CareerApplication } from "~/features/leads/components/career-application";
import { ButtonLink } from "~/ui/button";
import { ItemGrid } from "~/ui/item-grid";
import { PageHero, Section } from "~/ui/section";
import { site } from "~/config/site";
import { careerBenefits, openRoles } from "~/features/pages/content/careers";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { submitForm } from "~/features/leads/forms/submit.server";
import { pageMeta } from "~/features/site/seo";
import { keptQuery } from "~/features/site/query-params";

const CAREERS_PATH = "/company/careers";

/** The "Join Our Team" form posts here (to the page's own URL, so its utm_* parameters are recorded) → career_applications. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("career-application", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Careers",
    description: `Join ${site.company} and help businesses use AI safely: remote-first roles in engineering, research, sales and compliance, with equity for everyone.`,
    path: "/company/careers",
  });

/** The page's own URL with `apply=1`, keeping the utm_* parameters it was reached with. */
function applyHref(search: string) {
  const params = new URLSearchParams(keptQuery(CAREERS_PATH, search));
  params.set("apply", "1");
  return `${CAREERS_PATH}?${params}`;
}

export default function Careers() {
  const location = useLocation();
  return (
    <>
      <PageHero eyebrow="Careers" title={`Build the future of private AI at ${site.company}`}>
        <p>
          We are a team of more than 50 engineers, researchers and customer specialists protecting over 1000 organisations. If you
          care about security, privacy and doing hard things well, we would like to meet you.
        </p>
        <div className="mt-8">
          <ButtonLink to={applyHref(location.search)}>Apply Now</ButtonLink>
        </div>
        <CareerApplication />
      </PageHero>

      <Section id="benefits" title="Benefits" intro="What you can count on, whatever your role or location.">
        <ItemGrid items={careerBenefits} />
      </Section>

      <Section id="open-roles" title="Open roles" intro="Don't see your role? Apply anyway and tell us how you would help.">
        <ItemGrid items={openRoles} columns={2} />
      </Section>
    </>
  );
}
