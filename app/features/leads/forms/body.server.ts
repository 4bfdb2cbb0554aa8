/** No form post may exceed 64 KiB (the same cap as server/app.ts's Content-Length check)... */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * ...except where a form carries a document: the back office's post editor sends a whole post
 * (the renderer is benchmarked on 1 MB ones), its page editor a whole page. Read by the server's Content-Length check too.
 */
export const LARGE_FORM_LIMITS: readonly { pathPrefix: string; bytes: number }[] = [
  { pathPrefix: "/admin/posts", bytes: 2 * 1024 * 1024 },
  // The page editor sends every field of every block (PAGE_FORM_MAX_BYTES in its form module).
  { pathPrefix: "/admin/pages", bytes: 2 * 1024 * 1024 },
  // A position's text is at most about 35,000 characters, each up to nine bytes once form-encoded.
  { pathPrefix: "/admin/positions", bytes: 512 * 1024 },
];

/** The most bytes a form posted to `pathname` may have. */
export function formLimitFor(pathname: string): number {
  return (
    LARGE_FORM_LIMITS.find((limit) => pathname === limit.pathPrefix || pathname.startsWith(`${limit.pathPrefix}/`))?.bytes ??
    MAX_FORM_BYTES
  );
}

/**
 * The most fields a post may carry. The largest form has fewer than 20; a post with thousands of
 * fields is hostile and is refused before the schema walks them.
 */
export const MAX_FORM_FIELDS = 100;

/** Whether a parsed form has more than `limit` fields (repeated names counted each time); stops counting there. */
export function hasMoreFieldsThan(payload: URLSearchParams | FormData, limit: number): boolean {
  const names = payload.keys();
  for (let count = 0; !names.next().done;) {
    count += 1;
    if (count > limit) return true;
  }
  return false;
}

export type FormBody = { ok: true; payload: URLSearchParams | FormData } | { ok: false; status: 400 | 413 };

/**
 * Reads a form post with a byte counter, so a chunked body (no Content-Length for the server to
 * check) is cut off at its limit too. Anything that is not a urlencoded or multipart form gets 400.
 */
export async function readFormBody(request: Request): Promise<FormBody> {
  const bytes = await readCapped(request, formLimitFor(new URL(request.url).pathname));
  if (!bytes) return { ok: false, status: 413 };

  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  try {
    if (mediaType === "application/x-www-form-urlencoded") {
      return { ok: true, payload: new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
    }
    if (mediaType === "multipart/form-data") {
      const payload = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
      return { ok: true, payload };
    }
  } catch {
    // Malformed encoding or multipart framing: not a form we can read.
  }
  return { ok: false, status: 400 };
}

/**
 * Up to this much of an oversized chunked body (or of one answered unread) is read and thrown away
 * before the answer: a client still sending when the connection closes would see a reset instead.
 */
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads and drops what remains, up to `budget` bytes; true when the body ended within it. Never
 * cancels the stream: cancelling destroys the socket before the answer can be sent. When the
 * body did not end, the answer carries Connection: close.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<boolean> {
  let left = budget;
  while (left > 0) {
    const { done, value } = await reader.read();
    if (done) {
      reader.releaseLock();
      return true;
    }
    left -= value.byteLength;
  }
  reader.releaseLock();
  return false;
}

/**
 * Reads and drops, unparsed, the body of a post answered without looking at it (a client over its
 * rate limit): a body left unread keeps the keep-alive connection from carrying the next request.
 * False when it ran past 1 MiB and the answer must close the connection.
 */
export function discardFormBody(request: Request): Promise<boolean> {
  return discardBody(request, DRAIN_LIMIT);
}

/** Reads and drops what is left of a body (none if a reader still holds it), up to `budget` bytes. */
export async function discardBody(request: Request, budget: number): Promise<boolean> {
  if (!request.body || request.body.locked) return true;
  return discardRest(request.body.getReader(), budget);
}

/** The whole body, or undefined once it grows past `limit` bytes (the rest is drained, not kept). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await discardRest(reader, DRAIN_LIMIT - size);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
