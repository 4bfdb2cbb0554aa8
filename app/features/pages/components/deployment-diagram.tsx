import { Icon } from "~/ui/icon";
import { StepList } from "~/ui/step-list";
import { deploymentFlow, sentinelSteps, type DeploymentFlow } from "~/features/pages/content/product";
import type { Item } from "~/ui/content-types";

/** "How it works": the diagram, then the same story as numbered steps in words. */
export function HowItWorks({ flow = deploymentFlow, steps = sentinelSteps }: { flow?: DeploymentFlow; steps?: string[] }) {
  return (
    <>
      <DeploymentDiagram flow={flow} />
      <StepList steps={steps} className="mt-10" />
    </>
  );
}

/**
 * Where Sentinel runs, drawn: channels → Sentinel inside the customer's cloud (the dashed
 * private-deployment boundary) → evidence for auditors. Left to right on wide screens, top to
 * bottom on a phone. The drawing is hidden from assistive technology; the caption and the
 * numbered steps beside it carry the meaning.
 */
export function DeploymentDiagram({ flow = deploymentFlow }: { flow?: DeploymentFlow }) {
  return (
    <figure className="m-0">
      <div
        aria-hidden="true"
        className="grid items-center gap-3 lg:grid-cols-[minmax(0,1fr)_auto_minmax(0,2.2fr)_auto_minmax(0,1fr)]"
      >
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <p className="text-xs font-semibold tracking-wider text-muted uppercase">{flow.channels.title}</p>
          <ul className="mt-3 grid grid-cols-2 gap-2 lg:grid-cols-1">
            {flow.channels.items.map((channel) => (
              <li
                key={channel.title}
                className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm font-medium ring-1 ring-slate-200"
              >
                {channel.icon ? <Icon name={channel.icon} className="size-4 shrink-0 text-brand-700" /> : null}
                {channel.title}
              </li>
            ))}
          </ul>
        </div>
        <FlowArrow />
        <div className="relative mt-3 rounded-2xl border-2 border-dashed border-brand-600 bg-brand-50 p-5 pt-8 lg:mt-0">
          <p className="absolute -top-3.5 left-4 inline-flex items-center gap-1.5 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">
            <Icon name="lock" className="size-3.5" />
            {flow.boundary}
          </p>
          <div className="grid items-center gap-3 sm:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)]">
            <FlowNode item={flow.inside[0]!} emphasis />
            <FlowArrow small />
            <FlowNode item={flow.inside[1]!} />
          </div>
          <p className="mt-4 flex items-center gap-2 text-sm font-medium text-brand-800">
            <Icon name="shield-check" className="size-4 shrink-0" />
            {flow.boundaryNote}
          </p>
        </div>
        <FlowArrow />
        <FlowNode item={flow.evidence} />
      </div>
      <figcaption className="sr-only">{flow.description}</figcaption>
    </figure>
  );
}

function FlowNode({ item, emphasis = false }: { item: Item; emphasis?: boolean }) {
  return (
    <div
      className={`rounded-xl p-4 shadow-sm ${emphasis ? "bg-brand-800 text-white" : "border border-slate-200 bg-white text-ink"}`}
    >
      {item.icon ? <Icon name={item.icon} className={`size-6 ${emphasis ? "text-brand-100" : "text-brand-700"}`} /> : null}
      <p className="mt-2 font-semibold">{item.title}</p>
      {item.description ? (
        <p className={`mt-1 text-sm ${emphasis ? "text-brand-100" : "text-muted"}`}>{item.description}</p>
      ) : null}
    </div>
  );
}

/** Points down while the diagram is a column, right once it is a row. */
function FlowArrow({ small = false }: { small?: boolean }) {
  return (
    <Icon
      name="arrow-right"
      className={`mx-auto rotate-90 text-brand-600 ${small ? "size-5 sm:rotate-0" : "size-7 lg:rotate-0"}`}
    />
  );
}
