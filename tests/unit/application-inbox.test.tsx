import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { LeadInbox, type InboxProps } from "~/features/leads/admin/lead-inbox";

// The recruiting desk's inbox with positions: each position's pipeline, the position filter and
// the position of each application; the sales inboxes show none of it.

const ID = "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1";
const statuses = ["new", "screening", "interview", "offer", "hired", "rejected"].map((value) => ({
  value,
  decided: value === "hired" || value === "rejected",
}));

const props = (overrides: Partial<InboxProps> = {}): InboxProps => ({
  desk: { path: "/admin/applications", title: "Applications" },
  tabs: [],
  form: { id: "career-application", label: "Job applications", noun: "job application", hasCompany: false, hasPosition: true },
  statuses,
  assignees: [],
  values: { q: "", status: "", owner: "", from: "", to: "", source: "", campaign: "", position: "", locale: "" },
  problems: {},
  filtered: false,
  paged: false,
  zone: "UTC",
  leads: [
    lead("a", "Grace Hopper", { title: "Security Researcher", requested: "" }),
    lead("b", "Ada Lovelace", { title: "", requested: `${ID} (Account Executive)` }),
    lead("c", "Hedy Lamarr", { title: "", requested: "" }),
  ],
  positions: [
    {
      value: "open",
      label: "Open applications",
      href: "/admin/applications?position=open",
      counts: [2, 0, 0, 0, 0, 0],
      total: 2,
    },
    { value: ID, label: "Security Researcher", href: `/admin/applications?position=${ID}`, counts: [0, 0, 1, 0, 0, 0], total: 1 },
  ],
  languages: [],
  clearHref: "/admin/applications",
  newestHref: "/admin/applications",
  exportHref: "/admin/applications/export?",
  ...overrides,
});

function lead(id: string, name: string, position: { title: string; requested: string }): InboxProps["leads"][number] {
  return {
    id,
    href: `/admin/applications/${id}`,
    name,
    email: `${id}@example.com`,
    company: "",
    status: "new",
    owner: "",
    createdAt: "2026-03-01T10:00:00.000Z",
    campaign: "",
    position,
    language: id === "b" ? "de" : "en",
  };
}

function render(inbox: InboxProps) {
  const Stub = createRoutesStub([{ path: "/admin/applications", Component: () => <LeadInbox {...inbox} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/admin/applications"]} />);
}

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the applications inbox by position", () => {
  it("shows each position's pipeline, filters by position and names each application's position", () => {
    const html = render(props());
    expect(text(html)).toContain("Pipeline by position");
    expect(text(html)).toContain("Position New Screening Interview Offer Hired Rejected Total");
    expect(text(html)).toContain("Open applications 2 0 0 0 0 0 2");
    expect(text(html)).toContain("Security Researcher 0 0 1 0 0 0 1");
    expect(html).toContain(`href="/admin/applications?position=${ID}"`);
    expect(html).toMatch(
      /<select id="inbox-position" name="position"[^>]*><option value="" selected="">Any position<\/option><option value="open">Open applications<\/option>/,
    );
    expect(text(html)).toMatch(/a@example\.com Security Researcher New/);
    expect(text(html)).toContain(`b@example.com Open application Asked for ${ID} (Account Executive), not open New`);
    expect(text(html)).toMatch(/c@example\.com Open application New/);
  });

  it("names a refused position filter beside its field", () => {
    const html = render(props({ problems: { position: "Choose a position from the list." } }));
    expect(html).toMatch(
      /<select id="inbox-position" name="position" aria-invalid="true" aria-describedby="inbox-position-problem"/,
    );
    expect(html).toContain(
      '<p id="inbox-position-problem" class="mt-1 text-sm text-red-700">Choose a position from the list.</p>',
    );
  });

  it("shows no position to the sales inboxes", () => {
    const html = render(
      props({
        form: { id: "request-demo", label: "Demo requests", noun: "demo request", hasCompany: true, hasPosition: false },
        leads: [lead("a", "Grace Hopper", { title: "", requested: "" })],
        positions: [],
      }),
    );
    expect(text(html)).not.toContain("Position");
    expect(text(html)).not.toContain("Open application");
  });

  it("shows and filters by each application's language when the site has more than one", () => {
    expect(text(render(props()))).not.toContain("Language");
    const html = render(
      props({
        languages: [
          { value: "en", label: "English (en)" },
          { value: "de", label: "German (de)" },
        ],
        values: { ...props().values, locale: "de" },
      }),
    );
    expect(html).toContain('<label for="inbox-locale" class="text-sm font-medium">Language</label>');
    expect(html).toMatch(/<option value="de" selected="">German \(de\)<\/option>/);
    expect(text(html)).toMatch(/Ada Lovelace .* German \(de\)/);
    expect(text(html)).toMatch(/Grace Hopper .* English \(en\)/);
  });
});
