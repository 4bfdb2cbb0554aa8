import { execFile } from "node:child_process";
import https from "node:https";
import { setTimeout } from "node:timers/promises";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { uniqueCampaign } from "../e2e/forms-support";
import { useTopology } from "./support/topology";
// The deploy script itself, as an operator runs it, with this topology's nginx and servers.
import { rollingRestart } from "../../deploy/rolling-restart.mjs";

// A rolling restart under steady traffic: both servers restarted in turn by deploy/rolling-restart.mjs
// (out of nginx's rotation, SIGTERM, started again, healthy, back in) while a few loops keep asking
// for pages and posting the demo form through nginx. Every request must succeed, and every
// acknowledged lead must be stored exactly once.

const run = promisify(execFile);

const PAGES = ["/", "/resources/blog", "/company/careers", "/request-demo", "/terms/privacy-policy"];
const PAGE_LOOPS = 3;
const POST_LOOPS = 2;
// A steady load, not as much as the machine can take: during the roll one server carries it all
// (beside the other's start), and beyond its capacity load shedding answers 503, as it should.
const PAGE_PAUSE_MS = 20;
const POST_PAUSE_MS = 50;

type Failure = { request: string; outcome: string };

test.describe("rolling deploy", () => {
  test.describe.configure({ mode: "default" });
  const topology = useTopology();

  test("restarting both servers in turn under load drops no request and loses or duplicates no lead", async () => {
    test.setTimeout(90_000);
    const { url, servers, nginx, sql, accessLog, serverIndex, restartGracefully, diagnostics } = topology();
    const campaign = uniqueCampaign("rolling");
    // Keep-alive, as browsers: nginx's connections to the clients and to the servers are both reused.
    const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: PAGE_LOOPS + POST_LOOPS });
    const failures: Failure[] = [];
    const acknowledged: string[] = [];
    let pageViews = 0;
    let running = true;

    const pageLoop = async (offset: number) => {
      for (let index = offset; running; index++) {
        const path = PAGES[index % PAGES.length]!;
        const answer = await send(agent, `${url}${path}`).catch((error: NodeJS.ErrnoException) => ({
          status: 0,
          body: `${error.code} ${error.message}`,
        }));
        if (answer.status !== 200)
          failures.push({ request: `GET ${path}`, outcome: `${answer.status} ${answer.body.slice(0, 200)}` });
        else pageViews++;
        await setTimeout(PAGE_PAUSE_MS);
      }
    };
    const postLoop = async (loop: number) => {
      for (let index = 0; running; index++) {
        const email = `${campaign}-${loop}-${index}@example.com`;
        const form = new URLSearchParams({ first_name: "Roll", last_name: "Ing", email, company: "Deploys" });
        const path = `/request-demo?utm_source=topology&utm_medium=rolling&utm_campaign=${campaign}`;
        const answer = await send(agent, `${url}${path}`, {
          method: "POST",
          body: form.toString(),
          headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
        }).catch((error: NodeJS.ErrnoException) => ({ status: 0, body: `${error.code} ${error.message}` }));
        if (answer.status === 200 && answer.body.includes("Demo Request Submitted")) acknowledged.push(email);
        else failures.push({ request: `POST ${email}`, outcome: `${answer.status} ${answer.body.slice(0, 200)}` });
        await setTimeout(POST_PAUSE_MS);
      }
    };
    const loops = [
      ...Array.from({ length: PAGE_LOOPS }, (_, index) => pageLoop(index)),
      ...Array.from({ length: POST_LOOPS }, (_, index) => postLoop(index)),
    ];

    try {
      const pidsBefore = servers.map((server) => server.pid);
      const rollStart = accessLog().length;
      const addresses = servers.map((server) => new URL(server.url).host);
      const began = Date.now();
      const log: string[] = [];
      await rollingRestart({
        siteFile: nginx.siteFile,
        nginxPidFile: nginx.pidFile,
        reload: async () => {
          const [binary, ...prefix] = nginx.command;
          await run(binary!, [...prefix, "-t", "-q"]);
          await run(binary!, [...prefix, "-s", "reload"]);
        },
        servers: addresses.map((address, index) => ({
          address,
          healthUrl: `http://${address}/healthz`,
          restart: async () => void (await restartGracefully(index)),
        })),
        log: (line) => log.push(line),
      });
      console.log(`rolling restart of both servers: ${((Date.now() - began) / 1000).toFixed(1)} s\n  ${log.join("\n  ")}`);

      // Each server is a new process now, and both serve again through nginx.
      const pidsAfter = topology().servers.map((server) => server.pid);
      expect(pidsAfter[0]).not.toBe(pidsBefore[0]);
      expect(pidsAfter[1]).not.toBe(pidsBefore[1]);
      // nginx never had to try a second server: none it sent to was stopping or stopped.
      const retried = accessLog()
        .slice(rollStart)
        .filter((entry) => entry.upstreams.length > 1);
      expect(retried, "requests nginx sent to a server that was out of the rotation").toEqual([]);
      const rolledAt = accessLog().length;
      await expect
        .poll(
          () =>
            new Set(
              accessLog()
                .slice(rolledAt)
                .filter((entry) => entry.status === 200)
                .map((entry) => serverIndex(entry.upstreams.at(-1) ?? "")),
            ).size,
          { message: "both servers answer through nginx after the roll" },
        )
        .toBe(2);
    } finally {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    }

    console.log(
      `under the roll: ${pageViews} page views and ${acknowledged.length} acknowledged form posts; ${resent} sent again after nginx closed their connection unanswered`,
    );
    expect(failures, `requests that failed during the roll:\n${diagnostics()}`).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(10);
    expect(pageViews).toBeGreaterThan(20);

    const rows = await sql<{ email: string }>("select email from demo_requests where utm_campaign = $1", [campaign]);
    const stored = rows.map((row) => row.email).sort();
    expect(new Set(stored).size, "no lead stored twice").toBe(stored.length);
    expect(stored, "every acknowledged lead stored, nothing else").toEqual([...acknowledged].sort());
  });
});

/** Requests sent again after nginx closed the connection they went out on unanswered (see send). */
let resent = 0;

/**
 * One https request on the keep-alive agent; its status and body. A reload makes nginx's old
 * workers close their client connections that wait for a request (idle kept-alive ones, and one
 * just accepted), and a request sent on one at that moment gets no answer at all: as a browser
 * does, it is sent once more, on a connection of its own. nginx had not read it; an app server's failure
 * would be an answer from nginx (502), not a closed connection, and a post that was in fact
 * stored twice would show in the rows.
 */
async function send(
  agent: https.Agent,
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  try {
    return await sendOnce(agent, url, options);
  } catch (error) {
    if (!(error as { unanswered?: boolean }).unanswered) throw error;
    resent++;
    return sendOnce(false, url, options);
  }
}

function sendOnce(
  agent: https.Agent | false,
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = https.request(
      url,
      { agent, rejectUnauthorized: false, method: options.method ?? "GET", headers: options.headers, timeout: 15_000 },
      (response) => {
        answered = true;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("no answer within 15 s")));
    // No byte of an answer came before the connection closed ("socket hang up").
    request.on("error", (error: NodeJS.ErrnoException) =>
      reject(Object.assign(error, { unanswered: error.code === "ECONNRESET" && !answered })),
    );
    request.end(options.body);
  });
}
