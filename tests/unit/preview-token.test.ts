import { describe, expect, it } from "vitest";
import { loadEnv } from "~/env.server";
import { signPreviewToken, verifyPreviewToken } from "~/features/blog/preview-token.server";

const secret = "s".repeat(16) + "0123456789abcdef";
const otherSecret = "o".repeat(40);
const postId = "3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c";
const now = Date.parse("2025-06-01T12:00:00Z");
const inAWeek = new Date(now + 7 * 24 * 3_600_000);

/** The same token with the character at `index` replaced by another of the same alphabet. */
function alter(token: string, index: number): string {
  const char = token[index]!;
  const replacement = /\d/.test(char) ? String((Number(char) + 1) % 10) : char === "a" ? "b" : "a";
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

describe("preview tokens", () => {
  it("grant their post until they expire", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/);
    expect(verifyPreviewToken(secret, token, now)).toEqual({
      postId,
      expiresAt: new Date(Math.floor(inAWeek.getTime() / 1000) * 1000),
    });
  });

  it("are written in lower case, since page paths are", () => {
    const token = signPreviewToken(secret, postId.toUpperCase(), inAWeek);
    expect(token).toBe(token.toLowerCase());
    expect(verifyPreviewToken(secret, token, now)?.postId).toBe(postId);
    expect(verifyPreviewToken(secret, token.toUpperCase(), now)).toBeNull();
  });

  it("stop working at their expiry", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    expect(verifyPreviewToken(secret, token, inAWeek.getTime() - 1000)).not.toBeNull();
    expect(verifyPreviewToken(secret, token, inAWeek.getTime())).toBeNull();
    expect(verifyPreviewToken(secret, signPreviewToken(secret, postId, new Date(now - 1000)), now)).toBeNull();
  });

  it("refuse any change of one character: post id, expiry or signature", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    for (let index = 0; index < token.length; index += 1) {
      if (token[index] === "." || token[index] === "-") continue;
      expect(verifyPreviewToken(secret, alter(token, index), now), `character ${index}`).toBeNull();
    }
  });

  it("refuse an expiry moved later, even when the rest is kept", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    const [id, expires, signature] = token.split(".");
    expect(verifyPreviewToken(secret, `${id}.${Number(expires) + 86_400}.${signature}`, now)).toBeNull();
  });

  it("have one spelling: an expiry with leading zeros is refused", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    const [id, expires, signature] = token.split(".");
    for (const zeros of ["0", "00", "0000"]) {
      expect(verifyPreviewToken(secret, `${id}.${zeros}${expires}.${signature}`, now), zeros).toBeNull();
    }
    expect(verifyPreviewToken(secret, token, now)).not.toBeNull();
  });

  it("refuse a token signed with another secret", () => {
    expect(verifyPreviewToken(secret, signPreviewToken(otherSecret, postId, inAWeek), now)).toBeNull();
  });

  it("refuse malformed and unsigned tokens without throwing", () => {
    const token = signPreviewToken(secret, postId, inAWeek);
    const [id, expires] = token.split(".");
    for (const bad of [
      "",
      "x",
      postId,
      `${id}.${expires}`,
      `${id}.${expires}.`,
      `${token}0`,
      token.slice(0, -1),
      `${token}.extra`,
      `not-a-uuid.${expires}.${"0".repeat(64)}`,
      `${id}.-5.${"0".repeat(64)}`,
      `${id}.${"9".repeat(40)}.${"0".repeat(64)}`,
      "%00".repeat(50),
    ]) {
      expect(verifyPreviewToken(secret, bad, now), JSON.stringify(bad)).toBeNull();
    }
  });

  it("are signed only for UUIDs", () => {
    expect(() => signPreviewToken(secret, "hello-world", inAWeek)).toThrow(/not a UUID/);
  });
});

describe("PREVIEW_SECRET", () => {
  const production = { NODE_ENV: "production", SITE_URL: "https://quorvant.com" };

  it("is optional, and at least 32 characters when set", () => {
    expect(loadEnv(production).PREVIEW_SECRET).toBeUndefined();
    expect(loadEnv({ ...production, PREVIEW_SECRET: secret }).PREVIEW_SECRET).toBe(secret);
    expect(() => loadEnv({ ...production, PREVIEW_SECRET: "short" })).toThrow(
      /^Invalid configuration: PREVIEW_SECRET must be at least 32 characters/,
    );
  });
});
