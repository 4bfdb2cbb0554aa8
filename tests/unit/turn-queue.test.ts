import { createServer } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { turnQueue } from "../../server/turn-queue";

// The queue in front of costly work on a real HTTP server: a cheap request is answered between
// slices, not after every costly request that arrived before it.

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** An open connection to `port` and a way to send it one GET and read the answer's last line. */
async function connection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  closers.push(() => socket.destroy());
  await new Promise((resolve) => socket.once("connect", resolve));
  return (path: string) => {
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\r\n\r\n") && text.endsWith(".")) resolve(text.slice(text.lastIndexOf("\n") + 1));
      });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    return answer;
  };
}

describe("turn queue", () => {
  it("answers a cheap request at once while costly ones that arrived before it wait their turn", async () => {
    const COSTLY = 20;
    const inTurn = turnQueue(4);
    let costlyStarted = 0;
    const server = createServer((req, res) => {
      if (req.url === "/cheap") return void res.end(`costly started: ${costlyStarted}.`);
      inTurn(() => {
        costlyStarted += 1;
        spin(20); // a render's synchronous stretch
        res.end("costly.");
      });
    }).listen(0, "127.0.0.1");
    closers.push(() => server.close());
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    let connections = 0;
    const allAccepted = new Promise<void>((resolve) =>
      server.on("connection", () => {
        if (++connections === COSTLY + 1) setImmediate(resolve);
      }),
    );

    // Every connection is open (and accepted) first; then the costly requests and the cheap one
    // are written in one go, so the server reads all of them in the same turn.
    const sends = await Promise.all(Array.from({ length: COSTLY + 1 }, () => connection(port)));
    await allAccepted;
    const costly = sends.slice(0, COSTLY).map((send, n) => send(`/costly-${n}`));
    const cheap = await sends[COSTLY]!("/cheap");
    await Promise.all(costly);
    // Without the queue all twenty (400 ms of work) ran before it.
    expect(cheap).toBe("costly started: 0.");
  });

  it("starts work in the order it was queued, at least one item per turn, and lets I/O in between slices", async () => {
    const inTurn = turnQueue(4);
    const order: string[] = [];
    const done = new Promise<void>((resolve) => {
      for (let n = 1; n <= 6; n++) {
        inTurn(() => {
          if (n === 1) setImmediate(() => order.push("between"));
          spin(10); // longer than the slice: one item per turn
          order.push(String(n));
          if (n === 6) resolve();
        });
      }
    });
    await done;
    expect(order.filter((item) => item !== "between")).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(order.indexOf("between")).toBe(1);
  });
});
