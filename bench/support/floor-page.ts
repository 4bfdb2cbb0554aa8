// The floor of a Lighthouse run: a page with nothing in it, served with the response headers of one
// of the site's pages. What Lighthouse reports for it is what the browser and Lighthouse's own
// method cost on this machine at this moment, whatever a page holds: above all the navigation's
// first task (with `Cross-Origin-Opener-Policy` a fresh renderer process and its first JavaScript
// context), which Lighthouse's simulation counts as blocking time after its estimate of the first
// paint (docs/decisions/020-blocking-time-floor.md). A page's blocking time above the floor is what
// the page itself costs.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What describes a particular response rather than the site's policy for every page. */
const NOT_COPIED = new Set([
  "age",
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "date",
  "etag",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-page-cache",
  "x-request-id",
]);

const DOCUMENT =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Floor</title><meta name="description" content="A page with nothing in it, for the floor of a Lighthouse run."></head>' +
  "<body><main><h1>Floor</h1><p>A page with nothing in it but this paragraph, so that something is painted.</p></main></body></html>";

/**
 * Serves the empty page on a free loopback port with the headers `modelUrl` answers with, less the
 * ones named in `without` (lower case): what one header costs is the floor with it against without.
 */
export async function startFloorPage(modelUrl: string, without: readonly string[] = []) {
  const model = await fetch(modelUrl);
  if (!model.ok) throw new Error(`floor page: ${modelUrl} answered ${model.status}`);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  model.headers.forEach((value, name) => {
    if (!NOT_COPIED.has(name) && !without.includes(name)) headers[name] = value;
  });
  const server = createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(DOCUMENT);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    /** The copied headers' names, for the report. */
    headerNames: Object.keys(headers).sort(),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
