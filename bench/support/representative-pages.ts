// The pages the browser benchmarks measure: one of each kind, found on the running site.

/** One page of each kind. */
export async function representativePages(origin: string): Promise<[string, string][]> {
  // A post from the site's own list, so the benchmark follows the sample content (both builds seed the same).
  const list = await (await fetch(`${origin}/resources/blog`)).text();
  const post = /href="(\/resources\/blog\/[^"?#]+)"/.exec(list)?.[1];
  if (!post) throw new Error("no post link on /resources/blog");
  return [
    ["home", "/"],
    ["product", "/products/sentinel"],
    ["blog list", "/resources/blog"],
    ["post", post],
    ["form", "/request-demo"],
    ["legal", "/terms/privacy-policy"],
  ];
}
