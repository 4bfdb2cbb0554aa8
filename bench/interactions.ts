// `npm run bench:interactions` (after `npm run build`): how long the interactions people do first
// take to paint, in Chromium under a 4× CPU slowdown (DevTools Emulation.setCPUThrottlingRate), on
// this checkout's build and on a reference build, interleaved as in bench:lighthouse.
//
// The latency is INP's: the Event Timing API's duration (from the input to the next paint, input
// delay and processing included) of the interaction's slowest event, from a PerformanceObserver
// (durationThreshold 16) installed before the page's own scripts. 0 means no event of the
// interaction took 16 ms. Each interaction is measured twice, on a fresh page each time:
//   first  — as an impatient visitor: the click as soon as the element is there (the page still
//            streaming, its scripts loading and hydrating);
//   hydrating — the click as the entry module (the last to be fetched; it hydrates) has arrived:
//            the modules are being evaluated and the page hydrated;
//   loaded — after the load, with the network idle and the main thread idle once;
//   after a tap — loaded as above, then a tap on the page's heading and the click 150 ms later: on
//            a page that hydrates on the visitor's first input, the click meets the hydration that
//            the tap started (the cost moved from the load onto the visitor's next move).
// The click goes in as raw input at the element's place, so the time it waits for a busy main thread
// (INP's input delay) counts.
// A click that loads another document (a link followed before the router took over) is measured
// in the document it left; the observer keeps its entries in sessionStorage for that.
//
// The reference: REFERENCE_BUILD_DIR, else BENCH_REFERENCE (a git ref, by default main before the
// hydration work), as in bench/support/compared-builds.ts. INTERACTION_RUNS: rounds (3).
import { chromium, type Locator, type Page } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/lib/chromium";
import { DEFAULT_REFERENCE, inRoundOrder, medianAndSpread, startComparedBuilds } from "./support/compared-builds";

const ROUNDS = Number(process.env.INTERACTION_RUNS ?? 3);
const REFERENCE = process.env.BENCH_REFERENCE ?? DEFAULT_REFERENCE;
const CPU_SLOWDOWN = 4;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

type Interaction = {
  name: string;
  path: string;
  viewport: { width: number; height: number };
  /** What the visitor clicks. */
  target: (page: Page) => Locator;
};

const interactions: Interaction[] = [
  {
    name: "header menu",
    path: "/",
    viewport: DESKTOP,
    target: (page) => page.getByRole("navigation", { name: "Main" }).getByText("Resources"),
  },
  {
    name: "mobile menu",
    path: "/",
    viewport: PHONE,
    target: (page) => page.locator('summary[aria-label="Menu"]'),
  },
  {
    name: "blog category",
    path: "/resources/blog",
    viewport: DESKTOP,
    target: (page) => page.getByRole("navigation", { name: "Categories" }).getByRole("link").nth(1),
  },
  {
    name: "form field focus",
    path: "/request-demo",
    viewport: DESKTOP,
    target: (page) => page.getByLabel("First Name"),
  },
  {
    // Empty: the browser's or the form's own validation answers; no lead is made.
    name: "form submit (invalid)",
    path: "/request-demo",
    viewport: DESKTOP,
    target: (page) => page.getByRole("button", { name: "Schedule Demo" }),
  },
];

/**
 * Runs in every document before its scripts: records each event of an interaction slower than 16 ms.
 * As INP: only the events of an interaction (a click's pointerdown…click, a key press), not hovers.
 * A string, not a function: tsx would add helpers to a function's source that the page lacks.
 */
const OBSERVE_EVENTS = `{
  const store = (entries) => {
    const kept = JSON.parse(sessionStorage.getItem("bench-event-durations") ?? "[]");
    for (const entry of entries)
      if (entry.interactionId) kept.push({ name: entry.name, duration: entry.duration, startTime: entry.startTime });
    sessionStorage.setItem("bench-event-durations", JSON.stringify(kept));
  };
  // The time of the last press: the measured interaction is the last one.
  addEventListener("pointerdown", (event) => sessionStorage.setItem("bench-last-press", String(event.timeStamp)), true);
  const observer = new PerformanceObserver((list) => store(list.getEntries()));
  observer.observe({ type: "event", durationThreshold: 16, buffered: true });
  addEventListener("pagehide", () => store(observer.takeRecords()));
}`;

/** Waits until the network has been idle and then the main thread once (hydration done, under the slowdown). */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
}

const { builds, stop } = await startComparedBuilds(REFERENCE);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  console.log(`Interactions, ${ROUNDS} rounds, Chromium at ${CPU_SLOWDOWN}× CPU slowdown, ${CHROMIUM_PATH}`);
  for (const { name, label } of builds) console.log(`  ${name.padEnd(9)} ${label}`);
  console.log("Latency: the slowest event of the interaction, input to next paint (0: none over 16 ms).\n");

  const timings = ["first", "hydrating", "loaded", "after a tap"] as const;
  const results = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const interaction of interactions) {
      for (const timing of timings) {
        for (const { name, server } of inRoundOrder(builds, round)) {
          const context = await browser.newContext({ viewport: interaction.viewport });
          try {
            await context.addInitScript({ content: OBSERVE_EVENTS });
            const page = await context.newPage();
            const cdp = await context.newCDPSession(page);
            await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
            const url = `${server.url}${interaction.path}`;
            // The entry module, requested once the first paint is done with (or after) the other modules:
            // when it has arrived, the modules are evaluated and the page hydrated.
            const entryLoaded =
              timing === "hydrating"
                ? page.waitForEvent("requestfinished", (request) => /\/entry\.client-[^/]*\.js$/.test(request.url()))
                : undefined;
            const loaded = timing === "loaded" || timing === "after a tap";
            await page.goto(url, { waitUntil: loaded ? "load" : "commit" });
            if (loaded) await settle(page);
            // Where to click, found before the click: the click itself goes in as raw input (as a finger's
            // would), not through Playwright's checks, which run on the main thread and would wait out its long tasks.
            const box = await interaction.target(page).boundingBox();
            if (!box) throw new Error(`${interaction.name}: nothing to click on ${url}`);
            await entryLoaded;
            if (timing === "after a tap") {
              const heading = await page.getByRole("heading", { level: 1 }).first().boundingBox();
              if (!heading) throw new Error(`${interaction.name}: no heading to tap on ${url}`);
              await page.mouse.click(heading.x + 8, heading.y + heading.height / 2);
              await new Promise((resolve) => setTimeout(resolve, 150));
            }
            const origin = new URL(server.url).origin;
            await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
            await settle(page);
            // Back to the page's origin if the click loaded another document of the site; the entries are in its sessionStorage.
            const durations = await page.evaluate(() => {
              const lastPress = Number(sessionStorage.getItem("bench-last-press") ?? 0);
              return (
                JSON.parse(sessionStorage.getItem("bench-event-durations") ?? "[]") as { duration: number; startTime: number }[]
              )
                .filter((entry) => entry.startTime >= lastPress - 1)
                .map((entry) => entry.duration);
            });
            if (new URL(page.url()).origin !== origin) throw new Error(`${interaction.name} left the site: ${page.url()}`);
            const latency = Math.max(0, ...durations);
            const key = `${interaction.name}|${timing}|${name}`;
            results.set(key, [...(results.get(key) ?? []), latency]);
            console.log(
              `round ${round + 1}  ${interaction.name.padEnd(22)} ${timing.padEnd(11)} ${name.padEnd(9)} ${String(Math.round(latency)).padStart(5)} ms`,
            );
          } finally {
            await context.close();
          }
        }
      }
    }
  }

  console.log("\nMedians (lowest–highest), ms:");
  console.log(`${"interaction".padEnd(22)} ${"when".padEnd(11)} ${builds.map(({ name }) => name.padEnd(18)).join(" ")}`);
  for (const interaction of interactions) {
    for (const timing of timings) {
      console.log(
        `${interaction.name.padEnd(22)} ${timing.padEnd(11)} ` +
          builds
            .map(({ name }) => medianAndSpread(results.get(`${interaction.name}|${timing}|${name}`) ?? []).padEnd(18))
            .join(" "),
      );
    }
  }
} finally {
  await browser.close();
  await stop();
}
