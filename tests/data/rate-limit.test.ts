import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "~/db/connection.server";
import { createFormRateLimiter, type FormRateLimiter } from "~/features/leads/forms/rate-limit.server";
import { engines } from "./support/engines";

// The form rate limit's real stores: in memory beside SQLite, in PostgreSQL (form_rate_limits)
// beside PostgreSQL. Every address of one IPv6 /64 draws on one budget.

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`form rate limit beside ${engine.name}`, () => {
    let opened: OpenDatabase;
    let limiter: FormRateLimiter;

    beforeEach(async () => {
      opened = await openDatabase(await engine.create(), 2);
      // The server's choice: PostgreSQL's pool when there is one, memory otherwise.
      limiter = createFormRateLimiter({ points: 2, pool: opened.pool });
    });
    afterEach(async () => {
      await opened.db.destroy();
    });
    afterAll(() => engine.cleanup());

    const allowed = async (ip: string) => (await limiter.consume(ip, "test-request")).allowed;

    it("gives every address of one IPv6 /64 one budget, and another /64 its own", async () => {
      expect(await allowed("2001:db8:1:2::1")).toBe(true);
      expect(await allowed("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe(true);
      const third = await limiter.consume("2001:db8:1:2:aaaa::3", "test-request");
      expect(third.allowed).toBe(false);
      expect(third.allowed === false && third.retryAfterSeconds).toBeGreaterThan(0);

      expect(await allowed("2001:db8:1:3::1")).toBe(true);
      expect(await allowed("2001:db8:1:3::2")).toBe(true);
      expect(await allowed("2001:db8:1:3::3")).toBe(false);

      if (opened.pool) {
        const { rows } = await opened.pool.query<{ key: string }>("select key from form_rate_limits order by key");
        expect(rows.map((row) => row.key)).toEqual(["forms:2001:db8:1:2::/64", "forms:2001:db8:1:3::/64"]);
      }
    });

    it("counts an IPv4 client seen as IPv4-mapped IPv6 against its IPv4 budget", async () => {
      expect(await allowed("::ffff:10.0.0.1")).toBe(true);
      expect(await allowed("10.0.0.1")).toBe(true);
      expect(await allowed("::ffff:10.0.0.1")).toBe(false);
      expect(await allowed("10.0.0.2")).toBe(true);
    });
  });
}
