import { describe, expect, it } from "vitest";
import { signContentPreviewToken, verifyContentPreviewToken } from "~/features/content/preview-token.server";
import { signPreviewToken, verifyPreviewToken } from "~/features/blog/preview-token.server";

// The content core's preview links: a post's token is the one posts always had (links already
// given out keep working both ways), other types name themselves, and no token crosses types.

const secret = "s".repeat(16) + "0123456789abcdef";
const id = "3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c";
const now = Date.parse("2025-06-01T12:00:00Z");
const inAWeek = new Date(now + 7 * 24 * 3_600_000);
const expiresAt = new Date(Math.floor(inAWeek.getTime() / 1000) * 1000);

describe("content preview tokens", () => {
  it("write a post's token exactly as the post preview links were written", () => {
    const token = signContentPreviewToken(secret, "post", id, inAWeek);
    expect(token).toBe(signPreviewToken(secret, id, inAWeek));
    expect(verifyPreviewToken(secret, token, now)).toEqual({ postId: id, expiresAt });
    expect(verifyContentPreviewToken(secret, signPreviewToken(secret, id, inAWeek), now)).toEqual({
      type: "post",
      id,
      expiresAt,
    });
  });

  it("name a page and grant it until the expiry, never as a post", () => {
    const token = signContentPreviewToken(secret, "page", id.toUpperCase(), inAWeek);
    expect(token).toMatch(/^page-[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/);
    expect(verifyContentPreviewToken(secret, token, now)).toEqual({ type: "page", id, expiresAt });
    expect(verifyContentPreviewToken(secret, token, inAWeek.getTime())).toBeNull();
    // The same signature under another type's name, or without one, is refused.
    expect(verifyContentPreviewToken(secret, token.replace(/^page-/, ""), now)).toBeNull();
    expect(verifyContentPreviewToken(secret, token.replace(/^page-/, "legal-"), now)).toBeNull();
    expect(verifyContentPreviewToken(secret, token.replace(/^page-/, "post-"), now)).toBeNull();
    expect(verifyPreviewToken(secret, token, now)).toBeNull();
    expect(verifyContentPreviewToken("o".repeat(40), token, now)).toBeNull();
    expect(verifyContentPreviewToken(secret, `unknown-${token.slice(5)}`, now)).toBeNull();
  });
});
