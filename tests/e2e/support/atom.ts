import { SaxesParser, type SaxesTagNS } from "saxes";

// An Atom document read as a tree and checked against RFC 4287's rules: the blog's feeds and the
// open positions' (tests/e2e/feeds.spec.ts, tests/data/position-feeds.test.ts).

export type AtomTree = { name: string; attributes: Record<string, string>; text: string; children: AtomTree[] };

/** The document as a tree of Atom-namespace elements; throws on any well-formedness error. */
export function atomTree(xml: string): AtomTree {
  const parser = new SaxesParser({ xmlns: true });
  const stack: AtomTree[] = [{ name: "#document", attributes: {}, text: "", children: [] }];
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    const node: AtomTree = {
      name: tag.uri === "http://www.w3.org/2005/Atom" ? tag.local : `{${tag.uri}}${tag.local}`,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((attribute) => [attribute.local, attribute.value])),
      text: "",
      children: [],
    };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on("text", (text) => (stack.at(-1)!.text += text));
  parser.on("cdata", (text) => (stack.at(-1)!.text += text));
  parser.on("closetag", () => stack.pop());
  parser.write(xml).close();
  return stack[0]!.children[0]!;
}

export const childrenNamed = (node: AtomTree, name: string) => node.children.filter((child) => child.name === name);

/**
 * RFC 4287's rules for a feed document: exactly one id, title and updated (an RFC 3339 date) on
 * the feed and on each entry; an author on the feed or on every entry; a self link; each entry
 * with an alternate link; ids absolute IRIs. Returns what is wrong, nothing for a valid feed.
 */
export function atomProblems(feed: AtomTree): string[] {
  const problems: string[] = [];
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const checkCommon = (node: AtomTree, where: string) => {
    for (const name of ["id", "title", "updated"]) {
      if (childrenNamed(node, name).length !== 1) problems.push(`${where}: needs exactly one ${name}`);
    }
    const updated = childrenNamed(node, "updated")[0]?.text.trim() ?? "";
    if (!rfc3339.test(updated)) problems.push(`${where}: updated "${updated}" is not an RFC 3339 date`);
    const id = childrenNamed(node, "id")[0]?.text.trim() ?? "";
    if (!/^[a-z][a-z0-9+.-]*:/i.test(id)) problems.push(`${where}: id "${id}" is not an absolute IRI`);
  };
  if (feed.name !== "feed") return [`root element is ${feed.name}, not the Atom feed`];
  checkCommon(feed, "feed");
  if (!childrenNamed(feed, "link").some((link) => link.attributes.rel === "self")) problems.push("feed: no self link");
  const feedHasAuthor = childrenNamed(feed, "author").some((author) => childrenNamed(author, "name").length === 1);
  childrenNamed(feed, "entry").forEach((entry, index) => {
    checkCommon(entry, `entry ${index + 1}`);
    const links = childrenNamed(entry, "link");
    if (!links.some((link) => (link.attributes.rel ?? "alternate") === "alternate" && link.attributes.href)) {
      problems.push(`entry ${index + 1}: no alternate link`);
    }
    if (!feedHasAuthor && childrenNamed(entry, "author").length === 0) problems.push(`entry ${index + 1}: no author`);
  });
  return problems;
}
