import { describe, expect, it } from "vitest";
import { formatLongDate, isoDay } from "~/platform/dates";

describe("formatLongDate", () => {
  it("formats in long US style", () => {
    expect(formatLongDate("2025-03-05T12:00:00Z")).toBe("March 5, 2025");
  });
  it("never shifts the day near midnight UTC", () => {
    expect(formatLongDate("2025-03-05T23:59:59.999Z")).toBe("March 5, 2025");
    expect(formatLongDate("2025-03-05T00:00:00Z")).toBe("March 5, 2025");
    expect(formatLongDate("2025-03-05T00:30:00+01:00")).toBe("March 4, 2025");
  });
  it("returns an empty string for garbage", () => {
    expect(formatLongDate("not a date")).toBe("");
    expect(isoDay("nope")).toBe("");
  });
  it("gives the UTC day for <time>", () => {
    expect(isoDay("2025-03-05T23:59:59Z")).toBe("2025-03-05");
  });
});
