import { Transform } from "node:stream";
import type { PageIcons } from "~/platform/page-icons.server";
import { withPageStylesheet, type PageStylesheets } from "~/platform/page-stylesheet.server";

// A public page that hydrates at the first input carries only what its own markup uses of the
// site's stylesheet (app/platform/page-stylesheet.server.ts) and icon sprite
// (app/platform/page-icons.server.ts). What it uses is known only once the whole document is written.

const DOCUMENT_END = Buffer.from("</html>");
/** How much of the bytes so far is looked at for the document's end: its closing tag and whitespace after it. */
const TAIL_BYTES = DOCUMENT_END.length + 64;
const ASCII_WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** Whether the document's last bytes are its closing tag, followed by whitespace at most. */
function endsDocument(tail: Buffer): boolean {
  let end = tail.length;
  while (end > 0 && ASCII_WHITESPACE.has(tail[end - 1]!)) end -= 1;
  return end >= DOCUMENT_END.length && tail.subarray(end - DOCUMENT_END.length, end).equals(DOCUMENT_END);
}

/** The cut of a whole document: only the stylesheet's rules and the sprite's symbols its markup uses. */
export function pageCut(stylesheets: PageStylesheets, icons: PageIcons): (html: string) => string {
  return (html) => icons.forPage(withPageStylesheet(html, stylesheets) ?? html);
}

/**
 * A stream that sends the document as `cut` makes it when the renderer writes the whole document
 * at once, which it does when nothing on the page waits for slow data. A document still incomplete
 * once the renderer's write is over (a part streams in later, with classes and icons nobody has
 * seen yet) is sent as it comes, uncut.
 *
 * The chunks are held as they come and joined once: a document of a megabyte arrives in hundreds
 * of chunks, and adding each to a growing string, then reading that string's end, would copy the
 * whole document again for every chunk.
 */
export function pageCutStream(cut: (html: string) => string): Transform {
  let held: Buffer[] | null = [];
  /** The last bytes received: enough to see the document's end, whatever the chunks' sizes. */
  let tail: Buffer = Buffer.alloc(0);
  let waiting: NodeJS.Immediate | undefined;

  /** Everything held, as one document, cut when it is whole. */
  const document = (chunks: Buffer[], whole: boolean): Buffer | string => {
    const bytes = Buffer.concat(chunks);
    return whole ? cut(bytes.toString("utf8")) : bytes;
  };
  /** What is held, once: from then on, chunks pass as they come. */
  const take = () => {
    const chunks = held;
    held = null;
    clearImmediate(waiting);
    return chunks;
  };
  const release = (stream: Transform, whole: boolean) => {
    const chunks = take();
    if (chunks) stream.push(document(chunks, whole));
  };

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (held === null) return callback(null, chunk);
      held.push(chunk);
      tail = chunk.length >= TAIL_BYTES ? chunk.subarray(-TAIL_BYTES) : Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
      if (endsDocument(tail)) {
        // The document's own end, not the text "</html>" somewhere inside it. It is cut in a turn
        // of the event loop of its own: rendering a large page and cutting it are then two short
        // pauses for the other requests instead of one long one.
        clearImmediate(waiting);
        waiting = setImmediate(() => release(this, true));
      }
      // The renderer writes what is ready in one go: the next turn of the event loop means the rest streams.
      else waiting ??= setImmediate(() => release(this, false));
      callback();
    },
    flush(callback) {
      if (held === null) return callback();
      // Ended in the turn it was written in: cut in a turn of its own, as above.
      clearImmediate(waiting);
      waiting = setImmediate(() => callback(null, document(take() ?? [], true)));
    },
  });
  // Text out: the document is text once cut, and the next step (app/features/site/script-priority.server.ts)
  // reads text; a megabyte is then not encoded here only to be decoded there.
  stream.setEncoding("utf8");
  return stream;
}
