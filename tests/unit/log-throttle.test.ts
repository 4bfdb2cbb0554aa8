import type { Request, Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/platform/logger.server";
import { logThrottle, untrusted } from "../../server/log-throttle";
import { rejectCrossSitePosts } from "../../server/security";

/** A POST as a non-browser client can send it: it claims same-origin but names another Origin. */
function forgedPost(origin: string): Request {
  const headers: Record<string, string> = { "sec-fetch-site": "same-origin", origin, host: "quorvant.com" };
  return {
    method: "POST",
    protocol: "https",
    secure: true,
    headers,
    get: (name: string) => headers[name.toLowerCase()],
  } as unknown as Request;
}

function refusingResponse(): Response {
  const res = { locals: { requestId: "r" }, statusCode: 200 } as unknown as Response & { body?: string };
  Object.assign(res, {
    status: (code: number) => Object.assign(res, { statusCode: code }),
    set: () => res,
    type: () => res,
    send: (body: string) => Object.assign(res, { body }),
  });
  return res;
}

afterEach(() => vi.restoreAllMocks());

describe("warnings a request can cause", () => {
  it("are a few lines a minute however many posts are refused, the client's text escaped", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const reject = rejectCrossSitePosts(new URL("https://quorvant.com"));
    const next = vi.fn();
    for (let index = 0; index < 1_000; index += 1) {
      const res = refusingResponse();
      reject(forgedPost(`https://evil.example\n{"level":"error","msg":"forged"}\u202e${index}`), res, next);
      expect(res.statusCode).toBe(403);
    }
    expect(next).not.toHaveBeenCalled();
    expect(warn.mock.calls.length).toBeGreaterThan(0);
    expect(warn.mock.calls.length).toBeLessThanOrEqual(5);
    for (const [fields, message] of warn.mock.calls as unknown as [Record<string, unknown>, string][]) {
      for (const text of [message, String(fields.origin)]) {
        expect(text).not.toMatch(/[\n\r\u202e]/);
        expect(text).toContain("\\u000a");
        expect(text).toContain("\\u202e");
      }
    }
  });

  it("say how many were left out once the next interval starts, per kind", () => {
    let now = 0;
    const throttle = logThrottle({ limit: 2, intervalMs: 60_000, now: () => now });
    expect([1, 2, 3, 4].map(() => throttle("a").log)).toEqual([true, true, false, false]);
    expect(throttle("b")).toEqual({ log: true, suppressed: 0 });
    now = 60_000;
    expect(throttle("a")).toEqual({ log: true, suppressed: 2 });
    expect(throttle("a")).toEqual({ log: true, suppressed: 0 });
  });

  it("escape and cut what comes from the request", () => {
    expect(untrusted("https://quorvant.com")).toBe("https://quorvant.com");
    expect(untrusted("a\r\nb\\c\u001b[31m")).toBe("a\\u000d\\u000ab\\u005cc\\u001b[31m");
    expect(untrusted("x".repeat(300))).toBe(`${"x".repeat(200)}...`);
  });
});
