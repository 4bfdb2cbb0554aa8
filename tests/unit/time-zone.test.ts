import { describe, expect, it } from "vitest";
import { isTimeZone, localInputToUtc, utcToLocalInput } from "~/ui/admin/time-zone";

describe("editor time zones", () => {
  it("turns a local date and time into UTC, daylight saving included", () => {
    expect(localInputToUtc("2026-12-01T09:30", "Europe/Berlin")).toBe("2026-12-01T08:30:00.000Z");
    expect(localInputToUtc("2026-07-01T09:30", "Europe/Berlin")).toBe("2026-07-01T07:30:00.000Z");
    expect(localInputToUtc("2026-07-01T09:30", "America/New_York")).toBe("2026-07-01T13:30:00.000Z");
    expect(localInputToUtc("2026-07-01T09:30", "UTC")).toBe("2026-07-01T09:30:00.000Z");
  });

  it("shows a UTC time as the editor's local time, and back", () => {
    expect(utcToLocalInput("2026-12-01T08:30:00.000Z", "Europe/Berlin")).toBe("2026-12-01T09:30");
    expect(localInputToUtc(utcToLocalInput("2026-03-29T01:15:00.000Z", "Asia/Tokyo"), "Asia/Tokyo")).toBe(
      "2026-03-29T01:15:00.000Z",
    );
  });

  it("refuses impossible dates and unknown zones", () => {
    expect(localInputToUtc("2026-02-31T09:30", "UTC")).toBeUndefined();
    expect(localInputToUtc("2026-13-01T09:30", "UTC")).toBeUndefined();
    expect(localInputToUtc("tomorrow", "UTC")).toBeUndefined();
    expect(localInputToUtc("2026-12-01T09:30", "Mars/Olympus")).toBeUndefined();
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("x".repeat(100))).toBe(false);
  });
});
