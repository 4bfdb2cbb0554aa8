import { Icon } from "~/ui/icon";
import { consoleScene, type ConsoleScene, type PromptPart } from "~/features/pages/content/sentinel-console";

/** The console's own words (its chrome), in the page's language. */
export type ConsoleLabels = {
  product: string;
  live: string;
  prompt: string;
  detected: (finding: string) => string;
  inspectedIn: string;
  auditLog: string;
};

export const englishConsoleLabels: ConsoleLabels = {
  product: "Sentinel",
  live: "Live inspection",
  prompt: "Prompt",
  detected: (finding) => `Detected: ${finding}`,
  inspectedIn: "Inspected in",
  auditLog: "Audit log",
};

/**
 * The Sentinel console, drawn in HTML and CSS: one prompt inspected inline, its sensitive value
 * masked, the verdict with its rule, the audit entry and the time it took. Real text, so it stays
 * crisp at any zoom and reflows on a phone (the side navigation and the region badge drop out)
 * instead of shrinking. The drawing is hidden from assistive technology; the caption says it once.
 */
export function ConsoleIllustration({
  scene = consoleScene,
  labels = englishConsoleLabels,
}: {
  scene?: ConsoleScene;
  labels?: ConsoleLabels;
}) {
  return (
    <figure className="m-0">
      <div
        aria-hidden="true"
        className="overflow-hidden rounded-xl bg-slate-900 text-left text-[13px] leading-5 text-slate-200 shadow-2xl ring-1 shadow-brand-900/25 ring-slate-900/10"
      >
        <div className="flex items-center gap-3 border-b border-white/10 bg-slate-950 px-4 py-2.5">
          <span className="flex gap-1.5">
            <span className="size-2.5 rounded-full bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-600" />
            <span className="size-2.5 rounded-full bg-slate-600" />
          </span>
          <span className="font-semibold text-white">{labels.product}</span>
          <span className="text-slate-400">{labels.live}</span>
          <span className="ml-auto hidden items-center gap-1.5 rounded-full bg-emerald-400/10 px-2 py-0.5 text-xs font-medium text-emerald-300 sm:inline-flex">
            <span className="size-1.5 rounded-full bg-emerald-400" />
            {scene.deployment}
          </span>
        </div>
        <div className="grid sm:grid-cols-[8.5rem_minmax(0,1fr)]">
          <ul className="hidden space-y-1 border-r border-white/10 p-3 text-xs sm:block">
            {scene.navigation.map((item, index) => (
              <li
                key={item}
                className={
                  index === 0 ? "rounded-md bg-white/10 px-2 py-1.5 font-medium text-white" : "px-2 py-1.5 text-slate-400"
                }
              >
                {item}
              </li>
            ))}
          </ul>
          <div className="space-y-3 p-4">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-400">
              <span className="rounded bg-white/10 px-1.5 py-0.5 font-medium text-slate-100">{scene.channel}</span>
              <span className="hidden min-[480px]:inline">{scene.user}</span>
              <span className="ml-auto font-mono">{scene.time}</span>
            </div>
            <div className="rounded-lg bg-white/5 p-3 ring-1 ring-white/10">
              <p className="text-[11px] font-semibold tracking-wider text-slate-400 uppercase">{labels.prompt}</p>
              <p className="mt-1 text-sm leading-6 text-slate-100">
                {scene.prompt.map((part, index) => (
                  <PromptText key={index} part={part} />
                ))}
              </p>
            </div>
            <ul className="flex flex-wrap gap-2 text-xs">
              {scene.detection.map((finding, index) => (
                <li
                  key={finding}
                  className="inline-flex items-center gap-1.5 rounded-full bg-white/5 px-2.5 py-1 text-slate-300 ring-1 ring-white/10"
                >
                  {index === 0 ? <Icon name="scan-search" className="size-3.5 text-amber-300" /> : null}
                  {index === 0 ? labels.detected(finding) : finding}
                </li>
              ))}
            </ul>
            <div className="console-reveal rounded-lg bg-amber-300/10 p-3 ring-1 ring-amber-300/30">
              <div className="flex items-center justify-between gap-3">
                <span className="rounded-md bg-amber-300 px-2 py-1 text-xs font-bold tracking-wide text-slate-950 uppercase">
                  {scene.verdict.action}
                </span>
                <p className="text-xs text-slate-400">
                  {labels.inspectedIn} <span className="font-mono text-base font-semibold text-white">{scene.latency}</span>
                </p>
              </div>
              <p className="mt-2 font-semibold text-white">{scene.verdict.outcome}</p>
              <p className="mt-0.5 text-xs text-slate-300">
                <span className="font-mono text-amber-200">{scene.verdict.rule}</span> · {scene.verdict.ruleName}
              </p>
            </div>
            <div className="console-reveal console-reveal-later rounded-lg bg-slate-950 p-3 ring-1 ring-white/10">
              <p className="flex justify-between gap-2 text-[11px] font-semibold tracking-wider text-slate-400 uppercase">
                <span>{labels.auditLog}</span>
                <span className="font-mono tracking-normal normal-case">{scene.audit.id}</span>
              </p>
              <p className="mt-1 font-mono text-xs break-words text-emerald-300">
                {scene.time} · {scene.audit.fields.join(" · ")}
              </p>
            </div>
          </div>
        </div>
      </div>
      <figcaption className="sr-only">{scene.description}</figcaption>
    </figure>
  );
}

function PromptText({ part }: { part: PromptPart }) {
  if ("text" in part) return part.text;
  return (
    <span className="rounded bg-amber-300/15 px-1 py-0.5 font-mono whitespace-nowrap text-amber-200 ring-1 ring-amber-300/40">
      <span className="mr-1 font-sans text-[10px] font-bold tracking-wide text-amber-300 uppercase">{part.kind}</span>
      {part.redacted}
    </span>
  );
}
