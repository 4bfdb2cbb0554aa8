import http from "node:http";
import type { Locator, Page, Route } from "@playwright/test";
import { withDatabase } from "./support/database";

// Helpers shared by the lead-form specs (forms*.spec.ts).

export type LeadTable = "sales_leads" | "demo_requests" | "career_applications";

/** Rows of a lead table in the server's real SQLite file, found by a campaign unique to the test. */
export function leadRows(databasePath: string, table: LeadTable, campaign: string): Record<string, unknown>[] {
  return withDatabase(databasePath, (db) =>
    db.prepare(`select * from ${table} where utm_campaign = ? order by created_at`).all(campaign),
  ) as Record<string, unknown>[];
}

export function countRows(databasePath: string, table: LeadTable): number {
  return withDatabase(databasePath, (db) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
}

/** A real fault: the table disappears under the running server. */
export function renameTable(databasePath: string, from: string, to: string) {
  withDatabase(databasePath, (db) => db.exec(`alter table ${from} rename to ${to}`));
}

export function uniqueCampaign(label: string) {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Holds the page's form posts to `path` until `release()` is called, to observe the pending state. */
export async function holdPosts(page: Page, path: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname === path || url.pathname === `${path}.data`,
    async (route: Route) => {
      if (route.request().method() !== "POST") return route.continue();
      held += 1;
      await gate;
      await route.continue();
    },
  );
  return { release, held: () => held };
}

/** Posts `bytes` of form body with chunked transfer encoding (no Content-Length for the server to check). */
export function postChunked(
  baseUrl: string,
  path: string,
  bytes: number,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked", Origin: url.origin },
      },
      (response) => {
        answered = true;
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      },
    );
    let answered = false;
    // The server reads and drops up to 1 MiB before its 413, so this body is fully sent; were it
    // cut off, a failed write (EPIPE/ECONNRESET) after the answer would be expected.
    request.on("error", (error) => {
      if (answered) return;
      setTimeout(() => (answered ? undefined : reject(error)), 2000);
    });
    request.write("message=");
    const chunk = "x".repeat(4096);
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end();
    };
    pump();
  });
}

/** A form control by its label; a required marker ("*") after the label text is allowed. */
export function field(scope: Page | Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return scope.locator("form").getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}
