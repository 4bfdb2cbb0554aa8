import { parseFeed } from "@rowanmanning/feed-parser";
import { atomProblems, atomTree, childrenNamed } from "./support/atom";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";

// The open positions' feeds, /company/careers/atom.xml and /company/careers/feed.json, from the
// sample content's four positions: served and cached like the blog's feeds, advertised in the head
// of the careers page and of each position's page, and a position gone from them once it closes.

const SAMPLE_TITLES = [
  "Compliance Program Manager",
  "Enterprise Account Executive",
  "Security Researcher, AI Threats",
  "Senior Backend Engineer, Detection Platform",
];
const POSITION = "/company/careers/security-researcher-ai-threats";

/** The `<link rel="alternate">` tags of an HTML document, as "type title path". */
// The feeds a page names: its translations are alternates too, named by language instead of a type.
const alternatesIn = (html: string) =>
  [...html.matchAll(/<link\b[^>]*\brel="alternate"[^>]*>/g)]
    .filter((match) => /\btype="/.test(match[0]))
    .map((match) => {
      const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(match[0])?.[1] ?? "";
      return `${attribute("type")} ${attribute("title")} ${new URL(attribute("href")).pathname}`;
    });

test("both feeds list the sample's open positions, cached like the blog's, and the careers pages name them", async ({
  request,
  baseURL,
}) => {
  const [atom, json, blogAtom] = await Promise.all(
    ["/company/careers/atom.xml", "/company/careers/feed.json", "/atom.xml"].map((path) => request.get(path)),
  );
  expect(atom!.status()).toBe(200);
  expect(json!.status()).toBe(200);
  expect(atom!.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  expect(json!.headers()["content-type"]).toBe("application/feed+json; charset=utf-8");
  expect(atom!.headers()["cache-control"]).toBe(blogAtom!.headers()["cache-control"]);
  expect(json!.headers()["cache-control"]).toBe(blogAtom!.headers()["cache-control"]);

  const xml = await atom!.text();
  const tree = atomTree(xml);
  expect(atomProblems(tree)).toEqual([]);
  const entryTitles = childrenNamed(tree, "entry").map((entry) => childrenNamed(entry, "title")[0]!.text);
  expect(entryTitles.toSorted()).toEqual(SAMPLE_TITLES);
  expect(parseFeed(xml).items.map((item) => item.url)).toContain(`${baseURL}${POSITION}`);

  const feed = (await json!.json()) as {
    version: string;
    items: { id: string; url: string; title: string; content_html: string }[];
  };
  expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
  expect(feed.items.map((item) => item.title).toSorted()).toEqual(SAMPLE_TITLES);
  const researcher = feed.items.find((item) => item.url === `${baseURL}${POSITION}`)!;
  expect(researcher.content_html).toContain("<h3>What you will do</h3>");

  // Stored like the blog's feeds: a repeat within the freshness second is a hit.
  let again = await request.get("/company/careers/feed.json?utm_source=x");
  for (let attempt = 0; attempt < 10 && again.headers()["x-page-cache"] !== "HIT"; attempt += 1)
    again = await request.get("/company/careers/feed.json?utm_source=x");
  expect(again.headers()["x-page-cache"]).toBe("HIT");

  const named = [
    "application/atom+xml Open positions at Quorvant (Atom) /company/careers/atom.xml",
    "application/feed+json Open positions at Quorvant (JSON Feed) /company/careers/feed.json",
  ];
  for (const path of ["/company/careers", POSITION])
    expect(alternatesIn(await (await request.get(path)).text()), path).toEqual(named);
});

test("a position closed by its date leaves the feeds within the page cache's freshness", async ({ request }) => {
  const server = await startPrivateServer();
  try {
    const feedUrls = () =>
      Promise.all(
        ["/company/careers/atom.xml", "/company/careers/feed.json"].map(async (path) =>
          (await request.get(`${server.url}${path}`)).text(),
        ),
      );
    for (const body of await feedUrls()) expect(body).toContain(POSITION);
    // The closing date passes by the clock: nothing announces it, so no cached copy is forgotten.
    // Written as an editor's tool writes (updated_at too, which the servers' watch of held positions reads).
    const closesAt = Date.now() + 1_000;
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          "UPDATE content_documents SET published = json_set(published, '$.closesAt', ?), updated_at = ? WHERE published_path = ?",
        )
        .run(new Date(closesAt).toISOString(), new Date().toISOString(), POSITION),
    );
    await expect.poll(async () => (await feedUrls()).some((body) => body.includes(POSITION)), { timeout: 10_000 }).toBe(false);
    // Gone within the freshness second (plus a slow machine's render), not at some later forget.
    expect(Date.now() - closesAt).toBeLessThan(5_000);
  } finally {
    await server.stop();
  }
});
