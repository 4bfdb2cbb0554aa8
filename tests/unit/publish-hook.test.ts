import { afterEach, describe, expect, it, vi } from "vitest";
import {
  announceContentChange,
  pathChanged,
  setContentChangeListener,
  type ContentChange,
} from "~/features/content/publish-hook.server";

// The one hook every publish goes through: the listener hears each change once it is made, and a
// scheduled one again at its time; a listener that fails never fails the publish.

describe("the publish hook", () => {
  afterEach(() => {
    setContentChangeListener(undefined);
    vi.useRealTimers();
  });

  it("tells the listener now, and again when a scheduled change goes live", () => {
    vi.useFakeTimers();
    const heard: ContentChange[] = [];
    setContentChangeListener((change) => heard.push(change));
    const at = new Date(Date.now() + 60_000).toISOString();
    announceContentChange({ type: "page", id: "1", paths: ["/a"] });
    announceContentChange({ type: "page", id: "2", paths: ["/b"], at });
    expect(heard.map((change) => change.id)).toEqual(["1", "2"]);
    vi.advanceTimersByTime(60_010);
    expect(heard.map((change) => change.id)).toEqual(["1", "2", "2"]);
  });

  it("survives a listener that throws, and no listener at all", () => {
    setContentChangeListener(() => {
      throw new Error("cache gone");
    });
    expect(() => announceContentChange({ type: "post", id: "1", paths: ["/"] })).not.toThrow();
    setContentChangeListener(undefined);
    expect(() => announceContentChange({ type: "post", id: "1", paths: ["/"] })).not.toThrow();
  });

  it("matches exact paths and prefixes", () => {
    const paths = ["/", "/resources/blog/*"];
    expect(pathChanged(paths, "/")).toBe(true);
    expect(pathChanged(paths, "/resources/blog")).toBe(true);
    expect(pathChanged(paths, "/resources/blog/a-post")).toBe(true);
    expect(pathChanged(paths, "/resources/blogger")).toBe(false);
    expect(pathChanged(paths, "/product")).toBe(false);
  });
});
