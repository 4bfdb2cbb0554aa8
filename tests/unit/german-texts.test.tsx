import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { cardText } from "~/features/blog/og-card/layout";
import { postCardSource } from "~/features/blog/og-card/cards.server";
import { CAREERS_TEXT_KEYS, POSITION_TEXT_KEYS } from "~/features/careers/careers-texts";
import { ClosedPosition, PositionArticle } from "~/features/careers/components/position-page";
import { boardCounts, positionLabels } from "~/features/careers/position-labels.server";
import { fullDescription, positionDraftView } from "~/features/careers/position-page.server";
import { formatPay, positionWhere, type Position } from "~/features/careers/positions";
import { documentPreviewNotice, postPreviewNotice } from "~/features/content/preview-notice.server";
import { CATALOGS } from "~/features/i18n/messages.server";
import { routeTexts, shellData } from "~/features/i18n/shell.server";
import { sectionOf } from "~/features/pages/page-card.server";
import { pageRouteMeta } from "~/features/pages/page-meta";
import { BlogListPending, LatestInsightsPending } from "~/features/blog/components/blog-states";
import { pendingStateFor } from "~/features/site/pending-states";
import { cardVersion } from "~/features/social-cards/cards.server";
import { site } from "~/config/site";

// The texts of German pages that were written in code (a position's page, the careers board, the
// previews' banners, a post's card, the head of a missing page, the home page's loading state):
// German on a German page, and on an English page exactly the English they always were.

const english = { tag: "en", prefix: "" };
const german = { tag: "de", prefix: "/de" };
const en = CATALOGS.get("en")!;
const de = CATALOGS.get("de")!;

const position: Position & { id: string; path: string; postedAt: string } = {
  id: "9d3c2b1a-0f4e-4a5b-8c6d-7e8f9a0b1c2d",
  path: "/de/unternehmen/karriere/compliance-manager",
  postedAt: "2025-03-05T10:00:00.000Z",
  slug: "compliance-manager",
  title: "Compliance-Manager:in",
  team: "Governance",
  locations: ["Berlin", "München"],
  workplace: "hybrid",
  remoteRegions: [],
  employmentType: "full-time",
  pay: { min: 70_000, max: 90_000, currency: "EUR", period: "year" },
  summary: "Sie verantworten unsere Audits.",
  description: "Text",
  responsibilities: ["Audits führen"],
  requirements: ["Erfahrung mit ISO 27001"],
  hiringContacts: [],
  closesAt: null,
};

/** Drawn as on a page in `locale`: under the root, whose loader sends the frame's texts in that language. */
async function drawn(element: React.ReactNode, locale: { tag: string; prefix: string }, path: string) {
  const handler = createStaticHandler([
    { id: "root", path: "/*", loader: () => ({ shell: shellData(locale) }), Component: () => element },
  ]);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error("the root answered with a response");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />)
    .replaceAll("&amp;", "&")
    .replaceAll("&#x27;", "'");
}

describe("the careers board's and a position's words", () => {
  it("come from the page's own catalog: German on a German page, the English catalog's on an English one", () => {
    for (const keys of [CAREERS_TEXT_KEYS, POSITION_TEXT_KEYS]) {
      expect(routeTexts(english, keys)).toEqual(Object.fromEntries(keys.map((key) => [key, en[key]])));
      expect(routeTexts(german, keys)).toEqual(Object.fromEntries(keys.map((key) => [key, de[key]])));
    }
    expect(routeTexts(english, CAREERS_TEXT_KEYS)).toMatchObject({
      "shell.careers.filterLabel": "Filter open positions",
      "shell.careers.allTeams": "All teams",
      "shell.careers.anyWorkplace": "Any workplace",
      "shell.careers.onSite": "On site",
    });
    expect(routeTexts(german, CAREERS_TEXT_KEYS)).toMatchObject({
      "shell.careers.filterLabel": "Offene Stellen filtern",
      "shell.careers.team": "Team",
      "shell.careers.allTeams": "Alle Teams",
      "shell.careers.location": "Standort",
      "shell.careers.allLocations": "Alle Standorte",
      "shell.careers.workplace": "Arbeitsmodell",
      "shell.careers.anyWorkplace": "Alle Arbeitsmodelle",
      "shell.careers.onSite": "Vor Ort",
      "shell.careers.filter": "Filtern",
      "shell.careers.clear": "Zurücksetzen",
    });
    expect(routeTexts(german, POSITION_TEXT_KEYS)).toMatchObject({
      "shell.position.allPositions": "Alle offenen Stellen",
      "shell.position.employmentType": "Anstellungsart",
      "shell.position.pay": "Vergütung",
      "shell.position.apply": "Auf diese Stelle bewerben",
      "shell.position.responsibilities": "Ihre Aufgaben",
      "shell.position.requirements": "Was Sie mitbringen",
    });
  });

  it("write a position's labels in English exactly as before, and in German in German", () => {
    const english = positionLabels("en");
    const remote = { workplace: "remote" as const, locations: ["Remote"], remoteRegions: ["European Union", "United States"] };
    for (const where of [remote, { ...remote, remoteRegions: [] }, position, { ...position, workplace: "on-site" as const }])
      expect(english.where(where)).toBe(positionWhere(where));
    expect(english.where(remote)).toBe("Remote (European Union or United States)");
    for (const pay of [
      { min: 70_000, max: 90_000, currency: "EUR", period: "year" },
      { min: 25, max: 25, currency: "USD", period: "hour" },
      { min: 4_000, max: 5_000, currency: "GBP", period: "month" },
    ] as const)
      expect(english.pay(pay)).toBe(formatPay(pay));
    expect(english.employmentType("full-time")).toBe("Full-time");
    expect(english.workplace("on-site")).toBe("On site");

    const deutsch = positionLabels("de");
    expect(deutsch.where(position)).toBe("Berlin oder München (hybrid)");
    expect(deutsch.where({ ...remote, remoteRegions: ["Europäische Union"] })).toBe("Remote (Europäische Union)");
    expect(deutsch.pay(position.pay!)).toMatch(/^70\.000\s€–90\.000\s€ pro Jahr$/);
    expect(deutsch.pay({ min: 25, max: 25, currency: "EUR", period: "hour" })).toMatch(/^25\s€ pro Stunde$/);
    expect(deutsch.employmentType("full-time")).toBe("Vollzeit");
    expect(deutsch.employmentType("internship")).toBe("Praktikum");
    expect(deutsch.workplace("on-site")).toBe("Vor Ort");
  });

  it("count the board's positions with the language's plurals, English word for word as before", () => {
    const before = (count: number, filtered: boolean) =>
      `${count} open position${count === 1 ? "" : "s"}${filtered ? " match these filters" : ""}.`;
    const english = boardCounts(positionLabels("en"), 3);
    expect(english.all).toBe(before(3, false));
    expect(english.matching).toEqual([0, 1, 2, 3].map((count) => before(count, true)));
    expect(boardCounts(positionLabels("en"), 1).all).toBe("1 open position.");

    expect(boardCounts(positionLabels("de"), 1).all).toBe("1 offene Stelle.");
    expect(boardCounts(positionLabels("de"), 2)).toEqual({
      all: "2 offene Stellen.",
      matching: [
        "0 offene Stellen passen zu diesen Filtern.",
        "1 offene Stelle passt zu diesen Filtern.",
        "2 offene Stellen passen zu diesen Filtern.",
      ],
    });
  });

  it("head the description search engines read in the page's language", () => {
    expect(fullDescription(position, "<p>Text</p>", positionLabels("de"))).toBe(
      "<p>Sie verantworten unsere Audits.</p><p>Text</p><h3>Ihre Aufgaben</h3><ul><li>Audits führen</li></ul>" +
        "<h3>Was Sie mitbringen</h3><ul><li>Erfahrung mit ISO 27001</li></ul>",
    );
    expect(fullDescription(position, "")).toContain("<h3>What you will do</h3>");
    expect(fullDescription(position, "")).toContain("<h3>What you bring</h3>");
  });

  it("draw a German position's page in German, its links at the German careers page", async () => {
    const view = positionDraftView(position, position.id, "de");
    const html = await drawn(
      <PositionArticle
        position={view.position}
        descriptionHtml={view.descriptionHtml}
        texts={routeTexts(german, POSITION_TEXT_KEYS)}
        application={null}
      />,
      german,
      position.path,
    );
    for (const text of ["Alle offenen Stellen", "Standort", "Arbeitsmodell", "Anstellungsart", "Vergütung", "Vollzeit"])
      expect(html).toContain(text);
    for (const text of ["Ihre Aufgaben", "Was Sie mitbringen", "Auf diese Stelle bewerben", "pro Jahr"])
      expect(html).toContain(text);
    for (const text of [
      "All open positions",
      "Location",
      "Workplace",
      "Employment type",
      "Full-time",
      "What you",
      "Apply",
      "a year",
    ])
      expect(html, text).not.toContain(text);
    expect(html).toContain('href="/de/unternehmen/karriere"');
    expect(html).toContain(`href="/de/unternehmen/karriere?apply=1&position=${position.id}"`);

    const closed = await drawn(
      <ClosedPosition title={position.title} open={[]} texts={routeTexts(german, POSITION_TEXT_KEYS)} />,
      german,
      position.path,
    );
    for (const text of [
      "Diese Stelle ist nicht mehr ausgeschrieben.",
      "Offene Stellen",
      "Zurzeit gibt es keine offenen Stellen.",
    ])
      expect(closed).toContain(text);
    expect(closed).toMatch(/<a [^>]*href="\/de\/unternehmen\/karriere"[^>]*>Karriere bei Quorvant<\/a>/);
  });

  it("draw an English position's page in the words it always had", async () => {
    const view = positionDraftView({ ...position, slug: "compliance-manager" }, position.id);
    const html = await drawn(
      <PositionArticle
        position={view.position}
        descriptionHtml={view.descriptionHtml}
        texts={routeTexts(english, POSITION_TEXT_KEYS)}
        application={null}
      />,
      english,
      "/company/careers/compliance-manager",
    );
    for (const text of ["All open positions", "Team", "Location", "Workplace", "Employment type", "Pay", "Full-time"])
      expect(html).toContain(text);
    for (const text of ["What you will do", "What you bring", "Apply for this position", "€70,000–€90,000 a year"])
      expect(html).toContain(text);
    expect(html).toContain(`href="/company/careers?apply=1&position=${position.id}"`);
  });
});

describe("a preview link's banner", () => {
  const expiresAt = "2025-03-05T10:00:00.000Z";

  it("says in English what it always said", () => {
    expect(postPreviewNotice("en", { state: "draft", publishedDate: expiresAt, title: "T | Quorvant", expiresAt })).toEqual({
      heading: "Preview — not published",
      text: "This is a draft: visitors cannot see it. Only people with this link can see this page; the link works until March 5, 2025.",
      title: "Preview: T | Quorvant",
    });
    expect(
      postPreviewNotice("en", { state: "scheduled", publishedDate: "2025-04-01T09:30:00.000Z", title: "T", expiresAt }).text,
    ).toBe(
      "Scheduled to appear on April 1, 2025 at 09:30 UTC. Only people with this link can see this page; the link works until March 5, 2025.",
    );
    expect(documentPreviewNotice("en", { kind: "page", path: "/company/about", title: "About", expiresAt })).toEqual({
      heading: "Preview — not published",
      text: "The saved draft of the page at /company/about. Only people with this link can see it; the link works until March 5, 2025.",
      title: "Preview: About",
    });
    expect(documentPreviewNotice("en", { kind: "position", path: "/company/careers/x", title: "X", expiresAt }).text).toMatch(
      /^The saved draft of the position at \/company\/careers\/x\./,
    );
  });

  it("speaks German over a German post, page or position, its dates German too", () => {
    expect(postPreviewNotice("de", { state: "draft", publishedDate: expiresAt, title: "T | Quorvant", expiresAt })).toEqual({
      heading: "Vorschau – nicht veröffentlicht",
      text: "Dies ist ein Entwurf: Besucher sehen ihn nicht. Nur Personen mit diesem Link sehen diese Seite; der Link gilt bis zum 5. März 2025.",
      title: "Vorschau: T | Quorvant",
    });
    expect(
      postPreviewNotice("de", { state: "scheduled", publishedDate: "2025-04-01T09:30:00.000Z", title: "T", expiresAt }).text,
    ).toMatch(/^Erscheint planmäßig am 1\. April 2025 um 09:30 Uhr UTC\. /);
    expect(documentPreviewNotice("de", { kind: "page", path: "/de/marke", title: "Marke", expiresAt }).text).toBe(
      "Der gespeicherte Entwurf der Seite unter /de/marke. Nur Personen mit diesem Link sehen ihn; der Link gilt bis zum 5. März 2025.",
    );
    expect(
      documentPreviewNotice("de", { kind: "position", path: "/de/unternehmen/karriere/x", title: "X", expiresAt }).text,
    ).toMatch(/^Der gespeicherte Entwurf der Stelle unter /);
  });
});

describe("a post's social card", () => {
  const post = {
    id: "5b2c3d4e-1f0a-4b9c-8d7e-6f5a4b3c2d1e",
    title: "KI-Governance im Alltag",
    category: "Leitfäden",
    author: "Ada",
    published_date: "2025-03-05T12:00:00.000Z",
    image_url: null,
    updated_at: "2025-03-05T12:00:00.000Z",
  };

  it("writes a German post's date in German, an English post's as before", () => {
    expect(cardText(post, { fallbackTitle: "Quorvant Blog", locale: "de" }).date).toBe("5. März 2025");
    expect(cardText(post, { fallbackTitle: "Quorvant Blog" }).date).toBe("March 5, 2025");
    expect(postCardSource(post, "de").text(undefined as never).byline).toBe("Ada  ·  5. März 2025");
    expect(postCardSource(post).text(undefined as never).byline).toBe("Ada  ·  March 5, 2025");
    // Another language's card is another picture.
    expect(cardVersion(postCardSource(post, "de"))).not.toBe(cardVersion(postCardSource(post)));
  });

  it("names a German page's section without its language's prefix", () => {
    expect(sectionOf("/de/unternehmen/ueber-uns")).toBe("Unternehmen");
    expect(sectionOf("/de/produkte/sentinel")).toBe("Produkte");
    expect(sectionOf("/de/marke")).toBe("");
    expect(sectionOf("/de")).toBe("");
    expect(sectionOf("/company/about")).toBe("Company");
  });
});

describe("the frame's words on German pages", () => {
  const root = (locale: { tag: string; prefix: string }) => [{ id: "root", data: { shell: shellData(locale) } }];

  it("head a missing, removed or failed page in the page's language", () => {
    expect(pageRouteMeta(root(german), { state: "not-found", meta: null })).toEqual([
      { title: "Seite nicht gefunden | Quorvant" },
      { name: "description", content: "Die gesuchte Seite gibt es nicht." },
      { name: "robots", content: "noindex" },
    ]);
    expect(pageRouteMeta(root(german), { state: "gone", meta: null })[0]).toEqual({ title: "Seite entfernt | Quorvant" });
    expect(pageRouteMeta(root(german), { state: "failed", meta: null })[0]).toEqual({ title: "Fehler | Quorvant" });
    expect(pageRouteMeta(root(english), { state: "not-found", meta: null })).toEqual([
      { title: "Page not found | Quorvant" },
      { name: "description", content: "The page you were looking for does not exist." },
      { name: "robots", content: "noindex" },
    ]);
    expect(pageRouteMeta(root(english), { state: "gone", meta: null })).toEqual([
      { title: "Page removed | Quorvant" },
      { name: "description", content: "This page has been removed." },
      { name: "robots", content: "noindex" },
    ]);
    expect(pageRouteMeta(root(english), { state: "failed", meta: null })[0]).toEqual({ title: "Error | Quorvant" });
  });

  it("show the home page's and the blog's loading states of the frame's own language", async () => {
    const englishLinks = shellData(english).links;
    const germanLinks = shellData(german).links;
    expect(pendingStateFor("/", englishLinks)).toBe(LatestInsightsPending);
    expect(pendingStateFor("/resources/blog", englishLinks)).toBe(BlogListPending);
    expect(pendingStateFor("/de", germanLinks)).toBe(LatestInsightsPending);
    expect(pendingStateFor("/de/ressourcen/blog", germanLinks)).toBe(BlogListPending);
    // Into another language: the page being left stays until the data comes (its words would be the wrong language's).
    expect(pendingStateFor("/de", englishLinks)).toBeUndefined();
    expect(pendingStateFor("/", germanLinks)).toBeUndefined();

    const deutsch = await drawn(<LatestInsightsPending />, german, "/de");
    for (const text of [
      "Plattform für Compliance, Sicherheit und Governance privater KI",
      "Neueste Beiträge",
      "Unsere neuesten Artikel werden geladen …",
    ])
      expect(deutsch).toContain(text);
    expect(en["shell.home.headline"]).toBe(site.headline);
    const englisch = await drawn(<LatestInsightsPending />, english, "/");
    for (const text of [
      "Private AI Compliance, Security and Governance Platform",
      "Latest Insights",
      "Research, guidance and product news on keeping enterprise AI secure, compliant and under your control.",
      "Loading our latest articles...",
    ])
      expect(englisch).toContain(text);
  });
});
