import { expect, test } from "./support/fixtures";
import { withDatabase } from "./support/database";
import { startPrivateServer, type RunningServer } from "./support/server";
import { leadRows, uniqueCampaign } from "./forms-support";
import { positionRowValues, type PositionRow } from "../data/support/position-rows";

// An application posted for a position, as a browser without JavaScript posts it: an open
// position's applications are filed under it; one posted for a closed position is not lost but
// kept as an open application naming what was asked for, and the visitor is told the position is closed.

const CLOSED_MESSAGE = "This position is no longer open, so we kept your application as an open application.";

// A server of its own: the positions these tests add would show on the shared server's careers page.
let server: RunningServer;
test.beforeAll(async () => {
  server = await startPrivateServer();
});
test.afterAll(async () => {
  await server.stop();
});

function addPosition(row: PositionRow): string {
  const values = positionRowValues(row);
  const columns = Object.keys(values);
  withDatabase(server.databasePath, (db) =>
    db
      .prepare(
        `insert into content_documents (${columns.join(", ")}) values (${columns.map((column) => `@${column}`).join(", ")})`,
      )
      .run(values),
  );
  return values.id;
}

const applicant = {
  first_name: "Katherine",
  last_name: "Johnson",
  email: "katherine@example.com",
  why_quorvant: "Trajectories.",
};

test("an application for a closed position is kept as an open application and the visitor is told the position is closed", async ({
  request,
}) => {
  const closed = addPosition({ title: "Security Researcher", closesAt: "2026-01-02T00:00:00.000Z" });
  const campaign = uniqueCampaign("career-closed-position");
  const response = await request.post(`${server.url}/company/careers?apply=1&position=${closed}&utm_campaign=${campaign}`, {
    form: { ...applicant, position: closed },
    headers: { Origin: server.url },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const page = await response.text();
  expect(page).toContain("Application Submitted");
  expect(page).toContain(CLOSED_MESSAGE);
  expect(leadRows(server.databasePath, "career_applications", campaign)).toMatchObject([
    {
      first_name: "Katherine",
      why_quorvant: "Trajectories.",
      position_id: null,
      position_title: null,
      position_requested: `${closed} (Security Researcher)`,
    },
  ]);
});

test("an application for an open position is filed under it with the seed's message", async ({ request }) => {
  const open = addPosition({ title: "Account Executive" });
  const campaign = uniqueCampaign("career-open-position");
  const response = await request.post(`${server.url}/company/careers?apply=1&position=${open}&utm_campaign=${campaign}`, {
    form: { ...applicant, position: open },
    headers: { Origin: server.url },
  });
  expect(response.status()).toBe(200);
  const page = await response.text();
  expect(page).toContain("Application Submitted");
  expect(page).toContain("Thank you for your interest!");
  expect(page).not.toContain(CLOSED_MESSAGE);
  expect(leadRows(server.databasePath, "career_applications", campaign)).toMatchObject([
    { first_name: "Katherine", position_id: open, position_title: "Account Executive", position_requested: null },
  ]);
});
