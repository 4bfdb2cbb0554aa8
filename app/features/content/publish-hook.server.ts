import { logger } from "~/platform/logger.server";

// The one hook every publish, schedule, unpublish and live change of content goes through. It
// says which public paths changed, so the server that made the change drops its cached copies at
// once instead of waiting out their freshness (the other servers' copies expire within it). The
// server registers the listener when it creates its page cache; the command line has none.

export type ContentChange = {
  /** The registry type that changed (post, legal, page...). */
  type: string;
  id: string;
  /** Paths whose cached pages are out of date: exact paths, or a prefix written as "/path/*". */
  paths: string[];
  /** A scheduled change: visitors see it from this moment, not now. */
  at?: string;
};

type Listener = (change: ContentChange) => void;

let listener: Listener | undefined;
const timers = new Set<ReturnType<typeof setTimeout>>();

/** Who is told of changes (the page cache); one at a time, replaced on a development reload. */
export function setContentChangeListener(next: Listener | undefined): void {
  listener = next;
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
}

/** The longest a scheduled change waits here for its time; later ones are read by the clock when they come. */
const MAX_WAIT_MS = 24 * 3_600_000;

/**
 * Tells the listener of a change after its transaction committed. A scheduled one is told again at
 * its time (the public reads show it by themselves then; this drops the copies made before).
 */
export function announceContentChange(change: ContentChange): void {
  tell(change);
  if (!change.at) return;
  const wait = Date.parse(change.at) - Date.now();
  if (!(wait > 0 && wait <= MAX_WAIT_MS)) return;
  const timer = setTimeout(() => {
    timers.delete(timer);
    tell(change);
  }, wait + 5);
  timer.unref?.();
  timers.add(timer);
}

function tell(change: ContentChange): void {
  if (!listener) return;
  try {
    listener(change);
  } catch (error) {
    // The change is stored: a cache that could not be told only shows it a second later.
    logger.warn({ err: error, type: change.type, id: change.id }, "the page cache could not be told of a content change");
  }
}

/** Whether `pathname` is one of `paths` (exact, or under a "/prefix/*"). */
export function pathChanged(paths: readonly string[], pathname: string): boolean {
  return paths.some((path) =>
    path.endsWith("/*") ? pathname === path.slice(0, -2) || pathname.startsWith(path.slice(0, -1)) : pathname === path,
  );
}
