import { parseFeed } from "@rowanmanning/feed-parser";
import { atomProblems, atomTree, childrenNamed } from "./support/atom";
import { expect, test } from "./support/fixtures";

// The blog's three feeds carry the same posts: RSS 2.0, Atom 1.0 (RFC 4287) and JSON Feed 1.1,
// for the whole blog and per category, each advertised where it applies.

async function feeds(request: import("@playwright/test").APIRequestContext, query = "") {
  const [rss, atom, json] = await Promise.all(
    ["/rss.xml", "/atom.xml", "/feed.json"].map((path) => request.get(`${path}${query}`)),
  );
  expect(rss!.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
  expect(atom!.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  expect(json!.headers()["content-type"]).toBe("application/feed+json; charset=utf-8");
  return { rss: await rss!.text(), atom: await atom!.text(), json: (await json!.json()) as JsonFeed };
}

type JsonFeed = {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  items: {
    id: string;
    url: string;
    title: string;
    content_text?: string;
    content_html?: string;
    tags: string[];
    date_published: string;
  }[];
};

test("the Atom feed and the JSON Feed are valid and carry the same posts as the RSS feed", async ({ request, baseURL }) => {
  const { rss, atom, json } = await feeds(request);
  const rssLinks = [...rss.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((match) => match[1]);
  expect(rssLinks.length).toBeGreaterThan(2);

  const tree = atomTree(atom);
  expect(atomProblems(tree)).toEqual([]);
  const atomLinks = childrenNamed(tree, "entry").map((entry) => childrenNamed(entry, "link")[0]!.attributes.href);
  expect(atomLinks).toEqual(rssLinks);
  // A feed reader's parser sees the same.
  const parsed = parseFeed(atom);
  expect(parsed.meta.type).toBe("atom");
  expect(parsed.items.map((item) => item.url)).toEqual(rssLinks);
  expect(parsed.items.every((item) => item.title && item.authors.length > 0)).toBe(true);

  // JSON Feed 1.1: version, title and items are required; each item an id and content.
  expect(json.version).toBe("https://jsonfeed.org/version/1.1");
  expect(json.title).toBeTruthy();
  expect(json.feed_url).toBe(`${baseURL}/feed.json`);
  expect(json.home_page_url).toBe(`${baseURL}/resources/blog`);
  expect(json.items.map((item) => item.url)).toEqual(rssLinks);
  for (const item of json.items) {
    expect(item.id).toBeTruthy();
    expect(item.content_text ?? item.content_html).toBeTruthy();
    expect(new Date(item.date_published).toISOString()).toBe(item.date_published);
  }
});

test("per-category feeds hold only their category, in every format", async ({ request }) => {
  const { json: all } = await feeds(request);
  const category = all.items[0]!.tags[0]!;
  const inCategory = all.items.filter((item) => item.tags.includes(category)).map((item) => item.url);
  expect(inCategory.length).toBeLessThan(all.items.length);

  const { rss, atom, json } = await feeds(request, `?category=${encodeURIComponent(category)}`);
  expect(json.items.map((item) => item.url)).toEqual(inCategory);
  expect(json.items.every((item) => item.tags.length === 1 && item.tags[0] === category)).toBe(true);
  const rssCategories = [...rss.matchAll(/<item>[\s\S]*?<category>([^<]+)<\/category>/g)].map((match) => match[1]);
  expect(rssCategories).toEqual(inCategory.map(() => category));
  const tree = atomTree(atom);
  expect(atomProblems(tree)).toEqual([]);
  expect(childrenNamed(tree, "entry").map((entry) => childrenNamed(entry, "category")[0]!.attributes.label)).toEqual(
    inCategory.map(() => category),
  );

  // A category no published post has is no feed at all (it used to be an empty feed titled with
  // whatever was asked, right-to-left overrides included): 404 in every format.
  for (const path of ["/rss.xml", "/atom.xml", "/feed.json"]) {
    for (const name of ["No such category", "\u202eTrusted", category.toLowerCase()]) {
      const response = await request.get(`${path}?category=${encodeURIComponent(name)}`);
      expect(response.status(), `${path} ${name}`).toBe(404);
      expect(await response.text(), `${path} ${name}`).not.toContain(name);
    }
  }
});

test("pages about the blog advertise the feeds; a category's pages add the category's", async ({ page, request }) => {
  const alternates = async (path: string) => {
    await page.goto(path);
    // The feeds: a page's translations are alternates too, named by language instead of a type.
    return page
      .locator('head link[rel="alternate"][type]')
      .evaluateAll((links) =>
        links.map(
          (link) =>
            `${link.getAttribute("type")} ${new URL(link.getAttribute("href")!).pathname}${new URL(link.getAttribute("href")!).search}`,
        ),
      );
  };
  const whole = ["application/rss+xml /rss.xml", "application/atom+xml /atom.xml", "application/feed+json /feed.json"];
  expect(await alternates("/")).toEqual(whole);
  expect(await alternates("/resources/blog")).toEqual(whole);
  // A category the seeded posts have (one they lack leads to the All view).
  expect(await alternates("/resources/blog?category=Security")).toEqual([
    ...whole,
    "application/rss+xml /rss.xml?category=Security",
    "application/atom+xml /atom.xml?category=Security",
    "application/feed+json /feed.json?category=Security",
  ]);
  const { json } = await feeds(request);
  const post = json.items[0]!;
  const category = encodeURIComponent(post.tags[0]!).replaceAll("%20", "+");
  expect(await alternates(new URL(post.url).pathname)).toEqual([
    ...whole,
    `application/rss+xml /rss.xml?category=${category}`,
    `application/atom+xml /atom.xml?category=${category}`,
    `application/feed+json /feed.json?category=${category}`,
  ]);
  expect(await alternates("/company/about")).toEqual([]);
});

test("feeds are served from the page cache, one entry per category whatever else the URL holds", async ({ request }) => {
  // A stored copy serves for half a second: a few tries, in case the machine is slow between them.
  // A category the seeded posts have: one they lack is a 404, which is never stored.
  let again = await request.get("/atom.xml?category=Security");
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await request.get("/atom.xml?category=Security");
    again = await request.get("/atom.xml?utm_source=x&category=Security&y=1");
    if (again.headers()["x-page-cache"] === "HIT") break;
  }
  expect(again.headers()["x-page-cache"]).toBe("HIT");
  expect(await again.text()).toContain("<title>Quorvant Blog: Security</title>");
});
