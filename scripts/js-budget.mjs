// Measures the JavaScript a first visit downloads (at most 105 KB transferred on
// `/` and on a post). Run against a built server: `node scripts/js-budget.mjs http://localhost:3000 / /resources/blog/<slug>`.
// A page written `<path>=<KB>` has a budget of its own: the pages with the application form
// (the careers page, a position's page) carry the form's code in their first load.
import { brotliCompressSync } from "node:zlib";

const [base = "http://localhost:3000", ...pages] = process.argv.slice(2);
const BUDGET_KB = 105;
let failed = false;

for (const page of pages.length ? pages : ["/"]) {
  const [path = page, ownBudget] = page.split("=");
  const budget = Number(ownBudget ?? BUDGET_KB) * 1024;
  if (!(budget > 0)) throw new Error(`${page}: the budget after "=" is not a number of KB`);
  const html = await (await fetch(new URL(path, base))).text();
  // Script tags, preloads, and the module script's own import()s and fetch()es (scripts load after
  // the first paint: app/features/site/script-priority.server.ts turns the router's static imports into those).
  const scripts = new Set(
    [...html.matchAll(/(?:modulepreload"(?: fetchpriority="low")? href=|(?:import|fetch)\(|src=)"?(\/assets\/[^"')]+\.js)/g)].map(
      (match) => match[1],
    ),
  );
  // A page that loads no script at all means this pattern no longer matches how pages load them.
  if (scripts.size === 0) {
    console.log(`\n${path}: no script found in the page: the budget cannot be measured`);
    failed = true;
    continue;
  }
  let total = 0;
  const rows = [];
  for (const script of scripts) {
    // fetch() decompresses transparently, so measure what brotli (as precompressed at build) sends.
    const body = Buffer.from(await (await fetch(new URL(script, base))).arrayBuffer());
    const transferred = brotliCompressSync(body).length;
    total += transferred;
    rows.push(`${(transferred / 1024).toFixed(1).padStart(7)} KB  ${script}`);
  }
  console.log(
    `\n${path}: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB transferred (${total} bytes; budget ${budget / 1024} KB)${total > budget ? ": OVER BUDGET" : ""}`,
  );
  console.log(rows.join("\n"));
  if (total > budget) failed = true;
}
process.exit(failed ? 1 : 0);
