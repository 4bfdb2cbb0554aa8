import { logger } from "~/platform/logger.server";

// The one hook every publish, schedule, unpublish and live change of content goes through. It
// says which public paths changed, so the server that made the change drops its cached copies at
// once instead of waiting out their freshness. The server registers its page cache as a listener,
// the published pages held in memory register themselves; the command line has none. Changes made
// on other servers reach this one through the watch of ~/features/pages/published-pages.server.

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

/** By name, so a development reload replaces a listener instead of adding a second. */
const listeners = new Map<string, Listener>();
const timers = new Set<ReturnType<typeof setTimeout>>();
const PAGE_CACHE = "page cache";

/** The page cache, told of every change; replaced on a development reload (its waiting timers dropped). */
export function setContentChangeListener(next: Listener | undefined): void {
  watchContentChanges(PAGE_CACHE, next);
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
}

/** Another listener (what a feature holds in memory), by name; undefined removes it. */
export function watchContentChanges(name: string, next: Listener | undefined): void {
  if (next) listeners.set(name, next);
  else listeners.delete(name);
}

/** The longest a scheduled change waits here for its time; later ones are read by the clock when they come. */
const MAX_WAIT_MS = 24 * 3_600_000;

/**
 * Tells the listener of a change after its transaction committed. A scheduled one is told again at
 * its time (the public reads show it by themselves then; this drops the copies made before).
 */
export function announceContentChange(change: ContentChange, options: { except?: string } = {}): void {
  tell(change, options.except);
  if (!change.at) return;
  const wait = Date.parse(change.at) - Date.now();
  if (!(wait > 0 && wait <= MAX_WAIT_MS)) return;
  const timer = setTimeout(() => {
    timers.delete(timer);
    tell(change, options.except);
  }, wait + 5);
  timer.unref?.();
  timers.add(timer);
}

function tell(change: ContentChange, except: string | undefined): void {
  for (const [name, listener] of listeners) {
    if (name === except) continue;
    try {
      listener(change);
    } catch (error) {
      // The change is stored: a listener that could not be told only shows it a second later.
      logger.warn({ err: error, type: change.type, id: change.id, listener: name }, "a listener could not be told of a content change");
    }
  }
}

/** Whether `pathname` is one of `paths` (exact, or under a "/prefix/*"). */
export function pathChanged(paths: readonly string[], pathname: string): boolean {
  return paths.some((path) =>
    path.endsWith("/*") ? pathname === path.slice(0, -2) || pathname.startsWith(path.slice(0, -1)) : pathname === path,
  );
}
