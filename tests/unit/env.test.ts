import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "~/env.server";
import { strictTransportSecurity } from "../../server/security";

const production = { NODE_ENV: "production", SITE_URL: "https://quorvant.com" };

describe("configuration", () => {
  it("requires SITE_URL in production and defaults it to localhost elsewhere", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(
      /^Invalid configuration: SITE_URL is required when NODE_ENV=production/,
    );
    expect(() => loadEnv({ NODE_ENV: "production", SITE_URL: "" })).toThrow(ConfigError);
    expect(loadEnv({ NODE_ENV: "development", PORT: "4000" }).SITE_URL).toBe("http://localhost:4000");
  });

  it("keeps SITE_URL as a bare origin", () => {
    expect(loadEnv({ ...production, SITE_URL: "https://Quorvant.com:443/" }).SITE_URL).toBe("https://quorvant.com");
    expect(() => loadEnv({ ...production, SITE_URL: "ftp://quorvant.com" })).toThrow(
      /SITE_URL must be an absolute http\(s\) origin/,
    );
    expect(() => loadEnv({ ...production, SITE_URL: "https://quorvant.com/?a=1" })).toThrow(
      /SITE_URL must be an origin without a path/,
    );
  });

  it("takes a CDN purge URL over https (http only on loopback) with its token, and a known style", () => {
    const fastly = "https://api.fastly.com/service/abc/purge";
    expect(loadEnv({ ...production, CDN_PURGE_URL: fastly, CDN_PURGE_TOKEN: "t0ken" })).toMatchObject({
      CDN_PURGE_URL: fastly,
      CDN_PURGE_STYLE: "fastly",
      CDN_MAX_AGE_SECONDS: 86_400,
    });
    expect(loadEnv({ ...production, CDN_PURGE_URL: "http://127.0.0.1:6081/purge", CDN_PURGE_TOKEN: "t" }).CDN_PURGE_URL).toBe(
      "http://127.0.0.1:6081/purge",
    );
    expect(() => loadEnv({ ...production, CDN_PURGE_URL: "http://cdn.example.com/purge", CDN_PURGE_TOKEN: "t" })).toThrow(
      /CDN_PURGE_URL must be an https URL/,
    );
    expect(() => loadEnv({ ...production, CDN_PURGE_URL: fastly })).toThrow(/CDN_PURGE_TOKEN is required with CDN_PURGE_URL/);
    expect(() => loadEnv({ ...production, CDN_PURGE_STYLE: "akamai" })).toThrow(/CDN_PURGE_STYLE must be fastly or cloudflare/);
    expect(() => loadEnv({ ...production, CDN_MAX_AGE_SECONDS: "0" })).toThrow(/CDN_MAX_AGE_SECONDS/);
  });

  it("accepts a hop count or proxy addresses for TRUST_PROXY, never 'trust everything'", () => {
    for (const value of ["1", "2", "loopback", "127.0.0.1", "10.0.0.0/8, 192.168.1.7", "loopback,fd00::/8"]) {
      expect(loadEnv({ ...production, TRUST_PROXY: value }).TRUST_PROXY, value).toBe(value);
    }
    for (const value of ["true", "0", "11", "everything", "10.0.0.0/33", "1.2.3"]) {
      expect(() => loadEnv({ ...production, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY must be a hop count/);
    }
  });

  it("has timeouts that cut slow clients and outlast a load balancer's idle timeout", () => {
    const env = loadEnv(production);
    expect(env.HTTP_HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(env.HTTP_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(env.HTTP_KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(() => loadEnv({ ...production, HTTP_REQUEST_TIMEOUT_MS: "5000" })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadEnv({ ...production, HTTP_MAX_CONNECTIONS: "none" })).toThrow(/HTTP_MAX_CONNECTIONS/);
  });

  it("keeps the lead spool under the data folder, 64 MiB at most, unless told otherwise", () => {
    const env = loadEnv(production);
    expect([env.LEAD_SPOOL_DIR, env.LEAD_SPOOL_MAX_BYTES]).toEqual(["data/lead-spool", 64 * 1024 * 1024]);
    const custom = loadEnv({
      ...production,
      LEAD_SPOOL_DIR: " /var/lib/quorvant/lead-spool/3000 ",
      LEAD_SPOOL_MAX_BYTES: "1048576",
    });
    expect([custom.LEAD_SPOOL_DIR, custom.LEAD_SPOOL_MAX_BYTES]).toEqual(["/var/lib/quorvant/lead-spool/3000", 1_048_576]);
    // Less than one largest form could keep nothing.
    for (const value of ["1000", "64MiB", "-1", "1.5"]) {
      expect(() => loadEnv({ ...production, LEAD_SPOOL_MAX_BYTES: value }), value).toThrow(/LEAD_SPOOL_MAX_BYTES/);
    }
    expect(() => loadEnv({ ...production, LEAD_SPOOL_DIR: "   " })).toThrow(/LEAD_SPOOL_DIR/);
  });

  it("sends HSTS for two years with subdomains and no preload unless the operator says otherwise", () => {
    const header = (value?: string) => strictTransportSecurity(loadEnv({ ...production, HSTS: value }).HSTS);
    expect(header()).toBe("max-age=63072000; includeSubDomains");
    expect(header("max-age=63072000; includeSubDomains; preload")).toBe("max-age=63072000; includeSubDomains; preload");
    expect(header("max-age=300")).toBe("max-age=300");
    expect(header(" Max-Age=86400 ; INCLUDESUBDOMAINS ")).toBe("max-age=86400; includeSubDomains");
    expect(header("off")).toBeUndefined();
    for (const value of ["two years", "max-age=-1", "includeSubDomains; max-age=1", "max-age=1; preload", "max-age=1; x=1"]) {
      expect(() => header(value), value).toThrow(/HSTS /);
    }
    // The browsers' preload list wants subdomains and at least a year.
    expect(() => header("max-age=600; includeSubDomains; preload")).toThrow(/HSTS with preload must include/);
  });
});
