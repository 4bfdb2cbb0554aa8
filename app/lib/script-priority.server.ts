import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

// The router preloads the page's JavaScript with `<link rel="modulepreload">`, which browsers
// fetch at high priority, as if the page could not be shown without it. Our pages are complete
// HTML that works without JavaScript, so the content comes first: the preloads are marked
// `fetchpriority="low"` (the scripts still load in parallel and hydrate as soon as they arrive).
// The router's <Scripts> takes no attribute for its preload links, hence this rewrite of the
// rendered stream.

const PRELOAD_TAG = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD_TAG = '<link rel="modulepreload" fetchpriority="low"';

/** A stream that marks every module preload of the HTML passing through it as low priority. */
export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = carry + decoder.write(chunk);
      // A tag cut by the chunk boundary waits for the next chunk: keep from the last "<" on
      // when the tag it opens is not closed yet.
      const lastOpen = text.lastIndexOf("<");
      const cut = lastOpen !== -1 && text.indexOf(">", lastOpen) === -1 ? lastOpen : text.length;
      carry = text.slice(cut);
      callback(null, text.slice(0, cut).replaceAll(PRELOAD_TAG, LOW_PRIORITY_PRELOAD_TAG));
    },
    flush(callback) {
      callback(null, (carry + decoder.end()).replaceAll(PRELOAD_TAG, LOW_PRIORITY_PRELOAD_TAG));
    },
  });
}
