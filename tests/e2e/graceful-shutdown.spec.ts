import net from "node:net";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { uniqueCampaign } from "./forms-support";
import { startPrivateServer } from "./support/server";

// SIGTERM as a deploy sends it: the server stops taking connections but answers every request it
// has begun, each answer closing its connection (a proxy's kept-alive connection gets no next
// request that could be cut), closes idle connections, says "draining" on /healthz, and exits 0.
// Raw sockets, so each connection's state is exactly what the test made it.

type Connection = { socket: net.Socket; received: () => string; closed: Promise<void> };

function connect(url: string): Promise<Connection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve({ socket, received: () => received, closed }));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    socket.once("error", reject);
  });
}

test("SIGTERM finishes requests in flight with Connection: close, drops idle connections and reports draining", async () => {
  const server = await startPrivateServer();
  const campaign = uniqueCampaign("shutdown");
  const body = new URLSearchParams({
    first_name: "Ada",
    last_name: "Lovelace",
    email: `${campaign}@example.com`,
    company: "Engines",
  }).toString();
  try {
    // A form post whose body is half sent: in flight, its answer not begun.
    const posting = await connect(server.url);
    posting.socket.write(
      `POST /request-demo?utm_source=shutdown&utm_medium=e2e&utm_campaign=${campaign} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Origin: ${server.url}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 10),
    );
    // A health check whose headers are not complete yet.
    const checking = await connect(server.url);
    checking.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // A kept-alive connection, idle after its answer.
    const idle = await connect(server.url);
    idle.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await expect.poll(() => idle.received()).toMatch(/"status":"ok"/);
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.received()).toMatch(/^Connection: keep-alive\r$/im);
    // Both unfinished requests have reached the server before it is told to stop.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const exited = server.stop();
    await expect.poll(() => server.output()).toContain("shutting down: finishing in-flight requests");

    await idle.closed;
    checking.socket.write("\r\n");
    await checking.closed;
    expect(checking.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(checking.received()).toMatch(/^Connection: close\r$/im);
    expect(checking.received()).toContain('{"status":"draining"}');

    posting.socket.write(body.slice(10));
    await posting.closed;
    expect(posting.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(posting.received()).toMatch(/^Connection: close\r$/im);
    expect(await exited, server.output()).toBe(0);

    const rows = withDatabase(server.databasePath, (db) =>
      db.prepare("select email from demo_requests where utm_campaign = ?").all(campaign),
    );
    expect(rows).toEqual([{ email: `${campaign}@example.com` }]);
  } finally {
    await server.stop();
  }
});
