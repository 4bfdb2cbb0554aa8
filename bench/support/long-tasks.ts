// Whose work a Lighthouse run's blocking time is. Lighthouse reports its long tasks in simulated time
// (each observed task multiplied by the CPU slowdown and placed on a simulated timeline), without
// saying what ran in them. Each one is matched here to the task of the recorded trace whose duration
// times the slowdown (half of it for a task that laid out, as Lighthouse's simulation does) is the
// same, and named by what ran inside it. A long task's match is sure (few tasks are that long); one
// near the threshold can be matched to another of the same length, so the smaller kinds are an
// approximation. Its blocking time is counted as Lighthouse counts it: the part that falls between
// the first contentful paint and time to interactive, less 50 ms. Lighthouse averages two
// simulations, so the sum is near its TBT, not equal to it.
import type { RunnerResult } from "lighthouse";

type TraceEvent = {
  name: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown> };
};
type LongTask = { startTime: number; duration: number };

/** What a task was, from the events inside it; the first that applies. */
const KINDS: [kind: string, test: (names: Set<string>) => boolean][] = [
  // Creating the window's JavaScript context, the parser, reading the first bytes of the body.
  ["navigation", (names) => names.has("DocumentLoader::CreateParserPostCommit") && names.has("LocalWindowProxy::Initialize")],
  ["parse+script", (names) => names.has("ParseHTML") && names.has("EvaluateScript")],
  ["parse", (names) => names.has("ParseHTML")],
  ["script", (names) => names.has("EvaluateScript") || names.has("FunctionCall") || names.has("v8.evaluateModule")],
  ["style/layout", (names) => names.has("Layout") || names.has("UpdateLayoutTree")],
  ["paint", (names) => names.has("Paint")],
];
/** Every kind a task can be given, in the order a report shows them. */
export const TASK_KINDS = [...KINDS.map(([kind]) => kind), "other", "unmatched"];
/** Events shorter than this say little about what a task was. */
const MIN_EVENT_US = 500;
/** A simulated task matches an observed one when their durations agree this closely (ms, observed). */
const MATCH_MS = 1.5;
/** Lighthouse's: the part of a task beyond this blocks. */
const BLOCKING_THRESHOLD_MS = 50;

/** Blocking time (ms) per kind of task, or null when the run's trace is not there to read. */
export function blockingByKind(result: RunnerResult, slowdown: number): Map<string, number> | null {
  const trace = (result.artifacts as { Trace?: { traceEvents: TraceEvent[] } } | undefined)?.Trace?.traceEvents;
  const longTasks = (result.lhr.audits["long-tasks"]?.details as { items?: LongTask[] } | undefined)?.items;
  const fcp = result.lhr.audits["first-contentful-paint"]?.numericValue;
  const tti = result.lhr.audits["interactive"]?.numericValue;
  if (!trace || !longTasks || fcp === undefined || tti === undefined) return null;

  const navigation = trace.find(
    (event) =>
      event.name === "navigationStart" &&
      event.args?.data?.isLoadingMainFrame &&
      String(event.args.data.documentLoaderURL).startsWith("http"),
  );
  if (!navigation) return null;
  const mainThread = trace.filter((event) => event.dur && event.pid === navigation.pid && event.tid === navigation.tid);
  // Lighthouse's tasks are the main thread's RunTask events, and at times an event whose RunTask was
  // not recorded (the navigation's); the closest duration wins.
  const candidates = [
    ...mainThread.filter((event) => event.name === "RunTask"),
    ...mainThread.filter((event) => event.name !== "RunTask"),
  ];
  /** The names of the events within `task` that last at least `minimumUs`. */
  const namesWithin = (task: TraceEvent, minimumUs = 0) =>
    new Set(
      mainThread
        .filter(
          (event) =>
            event !== task && event.ts >= task.ts && event.ts + event.dur! <= task.ts + task.dur! && event.dur! >= minimumUs,
        )
        .map((event) => event.name),
    );
  const laidOut = new Map<TraceEvent, boolean>();
  const didLayout = (task: TraceEvent) => {
    if (!laidOut.has(task)) laidOut.set(task, namesWithin(task).has("Layout"));
    return laidOut.get(task)!;
  };
  // Lighthouse multiplies a task that laid out by half the slowdown, any other by the whole of it.
  const simulated = (task: TraceEvent) => (task.dur! / 1000) * (didLayout(task) ? slowdown / 2 : slowdown);
  const used = new Set<TraceEvent>();
  const byKind = new Map<string, number>();
  for (const longTask of longTasks) {
    const distance = (event: TraceEvent) => Math.abs(simulated(event) - longTask.duration) / slowdown;
    let match: TraceEvent | undefined;
    for (const event of candidates) {
      // Only a task of about the right length is worth looking inside.
      const rough = event.dur! / 1000;
      if (
        used.has(event) ||
        rough * slowdown < longTask.duration / 2 - MATCH_MS ||
        rough * slowdown > longTask.duration * 2 + MATCH_MS
      )
        continue;
      if (distance(event) < MATCH_MS && (!match || distance(event) < distance(match))) match = event;
    }
    let kind = "unmatched";
    if (match) {
      used.add(match);
      const names = namesWithin(match, MIN_EVENT_US);
      kind = KINDS.find(([, test]) => test(names))?.[0] ?? "other";
    }
    const end = longTask.startTime + longTask.duration;
    const blocking = Math.max(0, Math.min(end, tti) - Math.max(longTask.startTime, fcp) - BLOCKING_THRESHOLD_MS);
    byKind.set(kind, (byKind.get(kind) ?? 0) + blocking);
  }
  return byKind;
}
