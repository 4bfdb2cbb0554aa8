import { describe, expect, it } from "vitest";
import { memoByClock, nextMomentAfter } from "~/platform/memo-by-clock";

describe("memoByClock", () => {
  it("computes once per source within the window the computation gives, and again outside it", () => {
    let computed = 0;
    const memo = memoByClock((source: { n: number }, at: number) => {
      computed += 1;
      return { value: `${source.n}@${at}`, until: at + 100 };
    });
    const source = { n: 1 };
    expect(memo(source, 1_000)).toBe("1@1000");
    expect(memo(source, 1_099)).toBe("1@1000");
    expect(computed).toBe(1);
    expect(memo(source, 1_100)).toBe("1@1100"); // the window's end is outside it
    expect(memo(source, 1_050)).toBe("1@1050"); // before the moment it was computed at
    expect(memo({ n: 1 }, 1_050)).toBe("1@1050"); // another source, equal or not
    expect(computed).toBe(4);
  });
});

describe("nextMomentAfter", () => {
  it("is the earliest moment strictly after the given one, or Infinity", () => {
    const at = Date.parse("2026-11-29T10:00:00Z");
    expect(nextMomentAfter(at, ["2026-11-29T12:00:00Z", null, "2026-11-29T11:00:00Z", "2026-11-29T10:00:00Z", undefined])).toBe(
      Date.parse("2026-11-29T11:00:00Z"),
    );
    expect(nextMomentAfter(at, ["2026-11-29T09:00:00Z", null])).toBe(Infinity);
  });
});
