import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";
import { buildPreviousRelease } from "../../scripts/build-previous-release.mjs";
import { postgresAvailability, postgresEngine } from "../data/support/engines";
import { uniqueCampaign } from "../e2e/forms-support";

// During a rolling deploy the release before this one serves from the database this release has
// migrated (docs/operations.md, Rolling deploys: migrations expand first, contract a release later).
// Here the previous release (deploy/previous-release), built from its own commit, runs beside the
// current one on a PostgreSQL database the current one migrated, and everything it reads and writes
// still works: pages, a post, careers and a position, legal pages, a form post, the back office's
// sign-in page, /healthz.

test.describe("the previous release on the current schema", () => {
  test.describe.configure({ mode: "default" });
  const engine = postgresEngine();
  const started: BuiltServer[] = [];
  let previous: BuiltServer;
  let databaseUrl: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const postgres = await postgresAvailability();
    test.skip(!postgres.available, postgres.available ? "" : postgres.reason);
    // Its own checkout and build, made once and cached by commit (the build time is printed).
    const release = buildPreviousRelease();
    databaseUrl = await engine.create();
    // The current release migrates (and seeds) the database first, as the first server of a deploy
    // does; it keeps running, as the servers already rolled do.
    started.push(await startBuiltServer({ DATABASE_URL: databaseUrl }));
    previous = await startBuiltServer(
      { DATABASE_URL: databaseUrl, BUILD_DIR: path.join(release, "build") },
      { cwd: release, healthyWithinMs: 60_000 },
    );
    started.push(previous);
  });

  test.afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
    await engine.cleanup();
  });

  test("serves its pages from the migrated database", async ({ request }) => {
    const page = async (pathname: string) => {
      const answer = await request.get(`${previous.url}${pathname}`, { maxRedirects: 0 });
      expect(answer.status(), `${pathname} from the previous release:\n${previous.output().slice(-3000)}`).toBe(200);
      return answer.text();
    };
    expect(await page("/")).toContain("<html");
    const blog = await page("/resources/blog");
    const post = /href="(\/resources\/blog\/(?!preview\/)[a-z0-9-]+)"/.exec(blog)?.[1];
    expect(post, "the blog list links a post").toBeTruthy();
    await page(post!);
    const careers = await page("/company/careers");
    const position = /href="(\/company\/careers\/[a-z0-9-]+)"/.exec(careers)?.[1];
    expect(position, "the careers page links an open position").toBeTruthy();
    await page(position!);
    await page("/terms/privacy-policy");
    await page("/terms/terms-of-use");
    expect(await page("/admin/sign-in")).toContain("Sign in to the back office");
    expect(JSON.parse(await page("/healthz"))).toMatchObject({ status: "ok", database: "ok" });
  });

  test("stores a demo request posted to it", async ({ request }) => {
    const campaign = uniqueCampaign("previous-release");
    const answer = await request.post(
      `${previous.url}/request-demo?utm_source=release&utm_medium=previous&utm_campaign=${campaign}`,
      {
        form: { first_name: "Ada", last_name: "Lovelace", email: `${campaign}@example.com`, company: "Engines" },
        headers: { Origin: previous.url },
        maxRedirects: 0,
      },
    );
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toContain("Demo Request Submitted");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("select email, source_page from demo_requests where utm_campaign = $1", [campaign]);
      expect(rows).toEqual([{ email: `${campaign}@example.com`, source_page: "/request-demo" }]);
    } finally {
      await client.end();
    }
  });
});
