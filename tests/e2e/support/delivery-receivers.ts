import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import { leadRows, type LeadTable } from "../forms-support";
import { withDatabase } from "./database";

// The far ends of lead delivery, for real on loopback: an SMTP server that keeps every message
// it accepts, and an HTTP receiver that verifies every webhook's signature and answers as a test
// tells it to. Neither depends on Playwright, so the delivery benchmark uses them too.

/**
 * Fast retries, leases and polling for tests; the production defaults are seconds to an hour.
 * A lease must outlast one attempt (DELIVERY_TIMEOUT_MS), or a slow send could be claimed twice.
 */
export const FAST_DELIVERY: Record<string, string> = {
  DELIVERY_RETRY_BASE_MS: "100",
  DELIVERY_RETRY_MAX_MS: "400",
  DELIVERY_TIMEOUT_MS: "1500",
  DELIVERY_LEASE_MS: "2000",
  DELIVERY_POLL_MS: "100",
};

export type LeadForm = "contact-sales" | "request-demo" | "career-application";
export type { LeadTable };

/** Each form's page (where it posts) and the table its leads are stored in. */
export const LEAD_FORMS: Record<LeadForm, { path: string; table: LeadTable; webhookVariable: string }> = {
  "contact-sales": { path: "/contact-sales", table: "sales_leads", webhookVariable: "WEBHOOK_URL_CONTACT_SALES" },
  "request-demo": { path: "/request-demo", table: "demo_requests", webhookVariable: "WEBHOOK_URL_REQUEST_DEMO" },
  "career-application": {
    path: "/company/careers",
    table: "career_applications",
    webhookVariable: "WEBHOOK_URL_CAREER_APPLICATION",
  },
};

export type FormAnswer = { status: number; text: string; sentAt: number; answeredAt: number };

/**
 * Posts a lead form as a browser without JavaScript does (urlencoded, same-origin `Origin`),
 * tracked with `campaign` as utm_campaign so the test finds its rows.
 */
export async function postLead(
  serverUrl: string,
  form: LeadForm,
  fields: Record<string, string>,
  campaign: string,
  timeoutMs = 15_000,
): Promise<FormAnswer> {
  const url = `${serverUrl}${LEAD_FORMS[form].path}?utm_source=delivery&utm_medium=test&utm_campaign=${encodeURIComponent(campaign)}`;
  const sentAt = Date.now();
  const response = await fetch(url, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: serverUrl },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, text, sentAt, answeredAt: Date.now() };
}

/** Waits until `check` returns a value other than undefined/false, polling; throws `describe()` on timeout. */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  describe: () => string,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `task(0..count-1)` with at most `concurrency` at a time, in index order. */
export async function inPool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let index = next++; index < count; index = next++) await task(index);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// SMTP

export type ReceivedEmail = {
  /** The SMTP envelope: whom the message was really sent to (a Bcc included), which headers cannot show. */
  envelope: { from: string; to: string[] };
  /** The message as transmitted, CRLF line ends. */
  raw: string;
  /** The header block's fields, each unfolded onto one line ("Name: value"). */
  headerFields: string[];
  mail: ParsedMail;
  receivedAt: number;
};

export type SmtpReceiver = {
  /** `smtp://user:password@127.0.0.1:PORT`, for SMTP_URL. */
  url: string;
  /** The password in `url`: it must never appear in a log. */
  password: string;
  emails: ReceivedEmail[];
  /** The user names of every login (AUTH) the server received. */
  logins: string[];
  close: () => Promise<void>;
};

/**
 * A plain-text SMTP server on a free loopback port that accepts any login and every message.
 * It offers no STARTTLS, so the site sends to it only with SMTP_ALLOW_CLEARTEXT=true (see
 * CLEARTEXT_MAIL); without it, the site must refuse to log in or send.
 */
/** What a site needs to send to the test's plain-text mail server (which offers no STARTTLS). */
export const CLEARTEXT_MAIL = { SMTP_ALLOW_CLEARTEXT: "true" };

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const emails: ReceivedEmail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 500,
    onAuth: (auth, _session, callback) => {
      logins.push(auth.username ?? "");
      callback(null, { user: auth.username ?? "" });
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            const text = raw.toString("utf8");
            emails.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((address) => address.address),
              },
              raw: text,
              headerFields: headerFields(text),
              mail,
              receivedAt: Date.now(),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const password = randomBytes(12).toString("hex");
  return {
    url: `smtp://website:${password}@127.0.0.1:${port}`,
    password,
    emails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The header block of a raw message (up to the first empty line), folded lines joined. */
function headerFields(raw: string): string[] {
  const end = raw.search(/\r?\n\r?\n/);
  const block = end === -1 ? raw : raw.slice(0, end);
  const fields: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1] += ` ${line.trim()}`;
    else fields.push(line);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------
// Webhooks

/** The body of a lead webhook. */
export type LeadWebhook = { type: string; form: string; table: string; lead: Record<string, unknown> };

export type WebhookRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** `webhook-id`: one delivery's id, the same on each of its retries. */
  webhookId: string;
  /** Whether the Standard Webhooks signature checked out (an unsigned or forged request is answered 401). */
  verified: boolean;
  verifyError?: string;
  /** The parsed body, when it is JSON. */
  payload?: LeadWebhook;
  /** How many requests with this webhook-id had arrived, this one included. */
  attempt: number;
  receivedAt: number;
  /** When the receiver answered, or found the sender gone. */
  finishedAt?: number;
  status?: number;
  /** The sender was sent a 2xx answer on an open connection: a successful delivery. */
  delivered: boolean;
  /** The sender's connection closed before the answer (it crashed, or gave up). */
  aborted: boolean;
};

/** What to answer: a status code (with headers), decided (possibly after a wait) from the request and its attempt number. */
export type Answer = number | { status: number; headers: Record<string, string> };
export type Responder = (request: WebhookRequest) => Answer | Promise<Answer>;

export type WebhookReceiver = {
  /** `http://127.0.0.1:PORT` (append a path per form). */
  url: string;
  port: number;
  requests: WebhookRequest[];
  /** Changes how later requests are answered. */
  respondWith: (responder: Responder) => void;
  /** Requests answered 2xx on an open connection, counted per webhook-id. */
  deliveredPerWebhookId: () => Map<string, number>;
  /** Requests answered 2xx on an open connection, counted per lead id (`lead.id` of the body). */
  deliveredPerLeadId: () => Map<string, number>;
  /** Requests received and not yet answered. */
  inFlight: () => WebhookRequest[];
  /** Stops listening and drops every open connection (a held request is never answered). */
  close: () => Promise<void>;
};

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * An HTTP receiver on loopback (a free port, or `port` to come up where a server already points).
 * Every request is recorded; its signature is verified with the standardwebhooks package against
 * `secret`; a verified one is answered by `responder` (default 204), an unverified one 401.
 */
export async function startWebhookReceiver(options: {
  secret: string;
  responder?: Responder;
  port?: number;
}): Promise<WebhookReceiver> {
  const verifier = new Webhook(options.secret);
  let responder: Responder = options.responder ?? (() => 204);
  const requests: WebhookRequest[] = [];
  const attempts = new Map<string, number>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const webhookId = String(req.headers["webhook-id"] ?? "");
      const attempt = (attempts.get(webhookId) ?? 0) + 1;
      attempts.set(webhookId, attempt);
      const record: WebhookRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        webhookId,
        verified: false,
        attempt,
        receivedAt: Date.now(),
        delivered: false,
        aborted: false,
      };
      try {
        verifier.verify(body, req.headers as Record<string, string>);
        record.verified = true;
      } catch (error) {
        record.verifyError = (error as Error).message;
      }
      try {
        record.payload = JSON.parse(body) as LeadWebhook;
      } catch {
        // not JSON: the test's assertions say so
      }
      requests.push(record);
      // The sender is gone when its socket closes before we have answered.
      res.on("close", () => {
        if (!res.writableFinished) record.aborted = true;
        record.finishedAt ??= Date.now();
      });
      void Promise.resolve(record.verified ? responder(record) : 401)
        .catch((): Answer => 500)
        .then((answer) => {
          if (res.destroyed || req.socket.destroyed) {
            record.aborted = true;
            record.finishedAt ??= Date.now();
            return;
          }
          const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer;
          record.status = status;
          record.finishedAt = Date.now();
          record.delivered = status >= 200 && status < 300;
          res.writeHead(status, { "content-type": "text/plain", ...headers }).end(status < 300 ? "ok" : "failed");
        });
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const countDelivered = (key: (request: WebhookRequest) => string) => {
    const counts = new Map<string, number>();
    for (const request of requests)
      if (request.delivered && !request.aborted) counts.set(key(request), (counts.get(key(request)) ?? 0) + 1);
    return counts;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respondWith: (next) => (responder = next),
    deliveredPerWebhookId: () => countDelivered((request) => request.webhookId),
    deliveredPerLeadId: () => countDelivered((request) => String(request.payload?.lead?.id ?? "")),
    inFlight: () => requests.filter((request) => request.finishedAt === undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The delivery queue, read as an operator would

export type DeliveryRow = {
  id: string;
  lead_table: string;
  lead_id: string;
  destination: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
};

/** Every row of lead_deliveries in the database of `databaseUrl` (file:PATH or postgres://). */
export async function deliveryRows(databaseUrl: string): Promise<DeliveryRow[]> {
  const query =
    "select id, lead_table, lead_id, destination, status, attempts, last_error, sent_at from lead_deliveries order by created_at, id";
  if (databaseUrl.startsWith("file:")) {
    return withDatabase(databaseUrl.slice("file:".length), (db) => db.prepare(query).all() as DeliveryRow[]);
  }
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  await client.connect();
  try {
    const rows = (await client.query<DeliveryRow>(query)).rows.map(isoDates);
    return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
  } finally {
    await client.end();
  }
}

/** Rows of a lead table with the given utm_campaign, oldest first (either engine; timestamps as ISO strings). */
export async function leadsOfCampaign(
  databaseUrl: string,
  table: LeadTable,
  campaign: string,
): Promise<Record<string, unknown>[]> {
  if (databaseUrl.startsWith("file:")) return leadRows(databaseUrl.slice("file:".length), table, campaign);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(`select * from ${table} where utm_campaign = $1 order by created_at`, [campaign]);
    return rows.map(isoDates);
  } finally {
    await client.end();
  }
}

/** PostgreSQL hands timestamps back as Dates; the site's repositories and SQLite use ISO strings. */
function isoDates<Row extends object>(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  ) as Row;
}
