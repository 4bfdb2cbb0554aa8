import { describe, expect, it } from "vitest";
import { rateLimitKey } from "~/features/leads/forms/rate-limit.server";

// The form rate limit's key: an IPv6 client controls its whole /64, so the /64 is one budget;
// an IPv4 client seen through a dual-stack socket is the same client as over IPv4.

describe("rateLimitKey", () => {
  it("gives two addresses in one IPv6 /64 the same key, however they are written", () => {
    const key = rateLimitKey("2001:db8:1:2:3:4:5:6");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(rateLimitKey("2001:db8:1:2::1")).toBe(key);
    expect(rateLimitKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe(key);
    expect(rateLimitKey("2001:db8:1:2::1%eth0")).toBe(key);
  });

  it("gives different /64s different keys", () => {
    expect(rateLimitKey("2001:db8:1:3::1")).not.toBe(rateLimitKey("2001:db8:1:2::1"));
    expect(rateLimitKey("2001:db8:2:2::1")).not.toBe(rateLimitKey("2001:db8:1:2::1"));
    expect(rateLimitKey("::1")).toBe("::/64");
  });

  it("keys an IPv4-mapped IPv6 address as its IPv4 address, and IPv4 as it is", () => {
    expect(rateLimitKey("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(rateLimitKey("::ffff:a00:1")).toBe("10.0.0.1");
    expect(rateLimitKey("10.0.0.1")).toBe("10.0.0.1");
    expect(rateLimitKey("10.0.0.2")).not.toBe(rateLimitKey("10.0.0.1"));
  });

  it("uses anything unparseable as it is", () => {
    expect(rateLimitKey("unknown")).toBe("unknown");
    expect(rateLimitKey("")).toBe("");
    expect(rateLimitKey("1.2.3")).toBe("1.2.3");
    expect(rateLimitKey("2001:db8::/48")).toBe("2001:db8::/48");
  });
});
