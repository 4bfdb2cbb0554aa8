import client from "prom-client";

// Every Prometheus metric of the server, in one registry, served on its own listener (METRICS_PORT:
// server/metrics.ts), never on the public port. Labels take values from fixed sets only (route ids,
// status classes, reasons named in code), never a path, query, address or anything a client sent,
// so a flood of distinct URLs adds no series. What is read from elsewhere on a scrape (the database,
// the lead spool, the pool) comes through `measure`, handed in by the server: this module imports
// no feature.

export const registry = new client.Registry();

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Label values of a method: what the site answers, and everything else as one. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
export const methodLabel = (method: string | undefined) => (method && KNOWN_METHODS.has(method) ? method : "other");
/** 2xx … 5xx: a status code class keeps the series few. */
export const statusClass = (status: number) => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other");

/**
 * The series of one metric, bound to their label values once: a nested map from each label's
 * value to the next, so finding a series builds no string. prom-client's own `labels()` hashes
 * its labels into a string on every increment; these are the metrics of every request.
 */
class BoundSeries<Series> {
  private readonly root = new Map<string, unknown>();
  readonly all: { labels: Record<string, string>; series: Series }[] = [];
  constructor(
    private readonly labelNames: readonly string[],
    private readonly create: () => Series,
  ) {}

  get(values: readonly string[]): Series {
    let node = this.root;
    for (let index = 0; index < values.length - 1; index++) {
      let next = node.get(values[index]!) as Map<string, unknown> | undefined;
      if (!next) node.set(values[index]!, (next = new Map()));
      node = next;
    }
    const last = values[values.length - 1]!;
    let series = node.get(last) as Series | undefined;
    if (!series) {
      series = this.create();
      node.set(last, series);
      this.all.push({ labels: Object.fromEntries(this.labelNames.map((name, index) => [name, values[index]!])), series });
    }
    return series;
  }
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/** A counter whose series cost an addition each (see BoundSeries); read by the registry like prom-client's. */
class FastCounter<Label extends string> {
  private readonly series: BoundSeries<{ value: number; inc: (by?: number) => void }>;
  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly Label[],
  ) {
    this.series = new BoundSeries(labelNames, () => {
      const series = { value: 0, inc: (by = 1) => void (series.value += by) };
      return series;
    });
    registry.registerMetric(this as unknown as client.Metric);
  }
  /** The series of these label values, in the order of the label names. */
  labels(...values: string[]) {
    return this.series.get(values);
  }
  get() {
    const values: MetricValue[] = this.series.all.map(({ labels, series }) => ({ labels, value: series.value }));
    return { name: this.name, help: this.help, type: "counter", aggregator: "sum", values };
  }
  reset() {
    for (const { series } of this.series.all) series.value = 0;
  }
}

/** A histogram whose series cost a few comparisons and additions per observation; read like prom-client's. */
class FastHistogram<Label extends string> {
  private readonly series: BoundSeries<{ buckets: number[]; sum: number; count: number; observe: (value: number) => void }>;
  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly Label[],
    private readonly bounds: readonly number[],
  ) {
    this.series = new BoundSeries(labelNames, () => {
      const series = {
        buckets: bounds.map(() => 0),
        sum: 0,
        count: 0,
        observe: (value: number) => {
          series.sum += value;
          series.count += 1;
          for (let index = 0; index < bounds.length; index++) {
            if (value <= bounds[index]!) {
              series.buckets[index]! += 1;
              break;
            }
          }
        },
      };
      return series;
    });
    registry.registerMetric(this as unknown as client.Metric);
  }
  labels(...values: string[]) {
    return this.series.get(values);
  }
  get() {
    const values: MetricValue[] = [];
    for (const { labels, series } of this.series.all) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.buckets[index]!;
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: "+Inf" }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: "histogram", aggregator: "sum", values };
  }
  reset() {
    for (const { series } of this.series.all) {
      series.buckets.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

export const httpRequests = new FastCounter(
  "quorvant_http_requests_total",
  "Requests answered, by route (a route id, or cached, assets, media, static, healthz, unmatched, unrouted), method and status class.",
  ["route", "method", "status"],
);

export const httpDuration = new FastHistogram(
  "quorvant_http_request_duration_seconds",
  "Time from the request's arrival at the app to the end of its answer, by route.",
  ["route"],
  SECONDS,
);

const pageCacheLookups = new FastCounter(
  "quorvant_page_cache_requests_total",
  "Requests for cacheable pages, by result: hit (a stored copy), miss (rendered), stale (an old copy served because the server was too busy to render).",
  ["result"],
);
export const pageCacheHit = pageCacheLookups.labels("hit");
export const pageCacheMiss = pageCacheLookups.labels("miss");
export const pageCacheStale = pageCacheLookups.labels("stale");

export const refusedRequests = new client.Counter({
  name: "quorvant_refused_requests_total",
  help: "Requests refused before any route ran, by reason: overloaded (shed, 503), overloaded-stale (shed, answered with an old copy), too-large (413), rate-limited (429), cross-site (403), method-not-allowed (405).",
  labelNames: ["reason"] as const,
  registers: [registry],
});

export const renderWait = new client.Histogram({
  name: "quorvant_render_queue_wait_seconds",
  help: "How long an uncached render waited for a render slot (the load shedder's line).",
  buckets: SECONDS,
  registers: [registry],
});

export const turnWait = new client.Histogram({
  name: "quorvant_turn_queue_wait_seconds",
  help: "How long a request that is not a cache hit waited for its turn of the event loop.",
  buckets: SECONDS,
  registers: [registry],
});

export const dbQueryDuration = new client.Histogram({
  name: "quorvant_db_query_duration_seconds",
  help: "Database statement time, by outcome (ok or error).",
  labelNames: ["outcome"] as const,
  buckets: SECONDS,
  registers: [registry],
});
export const dbQueryOk = dbQueryDuration.labels("ok");
export const dbQueryError = dbQueryDuration.labels("error");

export const deliveryAttempts = new client.Counter({
  name: "quorvant_lead_delivery_attempts_total",
  help: "Lead delivery attempts made by this server, by destination kind and outcome (delivered, retry, dead).",
  labelNames: ["destination", "outcome"] as const,
  registers: [registry],
});

export const signIns = new client.Counter({
  name: "quorvant_sign_ins_total",
  help: "Back-office sign-ins that started a session, by method (passkey, sso).",
  labelNames: ["method"] as const,
  registers: [registry],
});

export const signInRefusals = new client.Counter({
  name: "quorvant_sign_in_refusals_total",
  help: "Back-office sign-ins refused, by method and reason (a fixed code).",
  labelNames: ["method", "reason"] as const,
  registers: [registry],
});

/** Jobs that ran to the end in this process, by name, in seconds since the epoch. */
const jobSuccesses = new Map<string, number>();
/** A background job (or one round of it) finished its work. */
export function jobSucceeded(job: string, at = Date.now()): void {
  jobSuccesses.set(job, at / 1000);
}

/** What a scrape reads from elsewhere: each handed in by the server, each optional. */
export type MeasuredSources = {
  renderQueue?: () => { waiting: number; rendering: number };
  turnQueue?: () => number;
  pageCache?: () => { entries: number; bytes: number };
  pool?: () => { total: number; idle: number; waiting: number } | undefined;
  deliveries?: () => Promise<
    { destination: string; pending: number; retrying: number; dead: number; oldestPendingAt: string | null }[]
  >;
  spool?: () => Promise<{ entries: number; bytes: number; oldestAt: number | null }>;
  /** Jobs whose last run is recorded where every server sees it (the database's job leases). */
  sharedJobs?: () => Promise<{ job: string; lastRunAt: string }[]>;
  /** The CDN purge outbox: rows waiting in all, and those already due. */
  cdnPurges?: () => Promise<{ pending: number; due: number }>;
};
const sources: MeasuredSources = {};

/** Hands in (or replaces) what a scrape reads. */
export function measure(given: MeasuredSources): void {
  Object.assign(sources, given);
}

/**
 * The value of `read` for one scrape: the gauges fed by one query each ask for it, and get the
 * same answer within the second (a scrape reads the database once, not once per gauge).
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let last: { at: number; value: Promise<T | undefined> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > 1_000) last = { at: now, value: within(SOURCE_TIMEOUT_MS, read) };
    return last.value;
  };
}

/**
 * A scrape never waits long for a source, nor fails with it: an unreachable database (the moment
 * the lead spool matters most) leaves its gauges at their last values and the rest are served.
 */
const SOURCE_TIMEOUT_MS = 750;
async function within<T>(ms: number, read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      read(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

new client.Gauge({
  name: "quorvant_render_queue_depth",
  help: "Uncached renders waiting for a render slot now.",
  registers: [registry],
  collect() {
    this.set(sources.renderQueue?.().waiting ?? 0);
  },
});
new client.Gauge({
  name: "quorvant_renders_in_progress",
  help: "Uncached renders under way now.",
  registers: [registry],
  collect() {
    this.set(sources.renderQueue?.().rendering ?? 0);
  },
});
new client.Gauge({
  name: "quorvant_turn_queue_depth",
  help: "Requests (not cache hits) waiting for their turn of the event loop now.",
  registers: [registry],
  collect() {
    this.set(sources.turnQueue?.() ?? 0);
  },
});
new client.Gauge({
  name: "quorvant_page_cache_entries",
  help: "Pages held by the page cache.",
  registers: [registry],
  collect() {
    this.set(sources.pageCache?.().entries ?? 0);
  },
});
new client.Gauge({
  name: "quorvant_page_cache_bytes",
  help: "Bytes held by the page cache (pages and their compressed copies).",
  registers: [registry],
  collect() {
    this.set(sources.pageCache?.().bytes ?? 0);
  },
});
new client.Gauge({
  name: "quorvant_db_pool_connections",
  help: "PostgreSQL pool connections by state: total (open), idle, waiting (requests waiting for a connection).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const pool = sources.pool?.();
    if (!pool) return;
    this.set({ state: "total" }, pool.total);
    this.set({ state: "idle" }, pool.idle);
    this.set({ state: "waiting" }, pool.waiting);
  },
});

/** A gauge a scrape sets from one source's answer; it keeps its last value while the source is away. */
function gaugeOf<T>(name: string, help: string, read: () => Promise<T | undefined>, value: (answer: T) => number): void {
  new client.Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const answer = await read();
      if (answer !== undefined) this.set(value(answer));
    },
  });
}

const readDeliveries = oncePerScrape(async () => (sources.deliveries ? sources.deliveries() : undefined));
new client.Gauge({
  name: "quorvant_lead_deliveries",
  help: "Lead deliveries in the database by destination kind and state: pending (not delivered yet), retrying (pending after a failed attempt), dead (given up).",
  labelNames: ["destination", "state"] as const,
  registers: [registry],
  async collect() {
    const rows = await readDeliveries();
    if (!rows) return;
    this.reset();
    for (const row of rows) {
      this.set({ destination: row.destination, state: "pending" }, row.pending);
      this.set({ destination: row.destination, state: "retrying" }, row.retrying);
      this.set({ destination: row.destination, state: "dead" }, row.dead);
    }
  },
});
new client.Gauge({
  name: "quorvant_lead_deliveries_oldest_pending_age_seconds",
  help: "Age of the oldest pending lead delivery, by destination kind (0 when none waits).",
  labelNames: ["destination"] as const,
  registers: [registry],
  async collect() {
    const rows = await readDeliveries();
    if (!rows) return;
    this.reset();
    for (const row of rows) {
      const age = row.oldestPendingAt ? Math.max(0, (Date.now() - Date.parse(row.oldestPendingAt)) / 1000) : 0;
      this.set({ destination: row.destination }, age);
    }
  },
});

const readSpool = oncePerScrape(async () => (sources.spool ? sources.spool() : undefined));
gaugeOf(
  "quorvant_lead_spool_entries",
  "Leads kept in this server's lead spool, waiting for the database.",
  readSpool,
  (spool) => spool.entries,
);
gaugeOf("quorvant_lead_spool_bytes", "Bytes of the leads in this server's lead spool.", readSpool, (spool) => spool.bytes);
gaugeOf(
  "quorvant_lead_spool_oldest_age_seconds",
  "How long the oldest lead in this server's spool has waited (0 when none waits).",
  readSpool,
  (spool) => (spool.oldestAt === null ? 0 : Math.max(0, (Date.now() - spool.oldestAt) / 1000)),
);

const readSharedJobs = oncePerScrape(async () => (sources.sharedJobs ? sources.sharedJobs() : undefined));
new client.Gauge({
  name: "quorvant_job_last_success_timestamp_seconds",
  help: "When each background job last ran to the end (seconds since the epoch): shared jobs as the database records them, others as this server saw them.",
  // Not "job": Prometheus gives every scraped series the job of its scrape configuration.
  labelNames: ["background_job"] as const,
  registers: [registry],
  async collect() {
    for (const [job, at] of jobSuccesses) this.set({ background_job: job }, at);
    for (const { job, lastRunAt } of (await readSharedJobs()) ?? [])
      this.set({ background_job: job }, Date.parse(lastRunAt) / 1000);
  },
});

const readCdnPurges = oncePerScrape(async () => (sources.cdnPurges ? sources.cdnPurges() : undefined));
new client.Gauge({
  name: "quorvant_cdn_purge_entries",
  help: "CDN purges in the outbox: due (to send now, or failing) and scheduled (for a later publish).",
  labelNames: ["state"] as const,
  registers: [registry],
  async collect() {
    const purges = await readCdnPurges();
    if (!purges) return;
    this.set({ state: "due" }, purges.due);
    this.set({ state: "scheduled" }, purges.pending - purges.due);
  },
});

let defaultsCollected = false;
/** The process's own metrics (CPU, memory, event-loop delay, handles, GC), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}
