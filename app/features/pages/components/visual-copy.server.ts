import { site } from "~/config/site";
import type { ConsoleLabels } from "~/features/pages/components/console-illustration";
import type { ProofPointsCopy } from "~/features/pages/components/proof-points";
import { consoleScene, type ConsoleScene } from "~/features/pages/content/sentinel-console";
import { deploymentFlow, type DeploymentFlow } from "~/features/pages/content/product";
import { complianceFrameworks } from "~/features/pages/content/proof-points";
import { serviceFigures } from "~/features/pages/content/service-figures";
import { catalogMessage } from "~/features/i18n/messages.server";

// The words the drawn visuals carry in code, in a page's language, from the message catalogs
// (block.*). The English catalog holds exactly the texts of the content modules, so an English
// page is drawn as it always was; names, rule codes and sample data stay as they are.

const UPTIME = 0.9999;
const UPTIME_DAYS = 30;
const LIVE_CHAT_MINUTES = 2;
const EMAIL_HOURS = 4;
const CONFIDENCE = 0.99;

export function proofPointsCopy(locale: string): ProofPointsCopy {
  const m = (key: string, values?: Record<string, string | number>) => catalogMessage(locale, `block.proofPoints.${key}`, values);
  const frameworkText = ["soc2", "iso27001", "gdpr", "hipaa"];
  return {
    title: m("title"),
    service: m("service"),
    frameworksTitle: m("frameworks"),
    trustLink: m("trustLink"),
    trustLinkEnd: m("trustLinkEnd"),
    trustPath: m("trustPath"),
    figures: [
      { value: m("uptimeValue", { uptime: UPTIME }), label: m("uptime", { days: UPTIME_DAYS }) },
      { value: serviceFigures.averageResponse, label: m("averageResponse") },
      { value: m("under", { duration: m("minutes", { count: LIVE_CHAT_MINUTES }) }), label: m("liveChat") },
      { value: m("under", { duration: m("hours", { count: EMAIL_HOURS }) }), label: m("email") },
    ],
    frameworks: complianceFrameworks.map((framework, index) => ({ ...framework, description: m(frameworkText[index]!) })),
  };
}

export function consoleCopy(locale: string): { scene: ConsoleScene; labels: ConsoleLabels } {
  const m = (key: string, values?: Record<string, string | number>) => catalogMessage(locale, `block.console.${key}`, values);
  const [before, redacted, after] = consoleScene.prompt;
  return {
    labels: {
      product: m("product"),
      live: m("live"),
      prompt: m("prompt"),
      detected: (finding) => m("detected", { finding }),
      inspectedIn: m("inspectedIn"),
      auditLog: m("auditLog"),
    },
    scene: {
      ...consoleScene,
      prompt: [
        { ...before!, text: m("promptBefore") },
        redacted!,
        { ...after!, text: m("promptAfter") },
      ] as ConsoleScene["prompt"],
      detection: [m("finding"), m("confidence", { confidence: CONFIDENCE })],
      verdict: { ...consoleScene.verdict, action: m("action"), outcome: m("outcome"), ruleName: m("ruleName") },
      navigation: m("navigation").split("|"),
      deployment: m("deployment"),
      description: m("description", { product: site.product.name, latency: serviceFigures.averageResponse }),
    },
  };
}

export function howItWorksCopy(locale: string): { flow: DeploymentFlow; steps: string[] } {
  const m = (key: string) => catalogMessage(locale, `block.howItWorks.${key}`);
  const item = <T extends object>(base: T, title: string, description?: string) => ({
    ...base,
    title: m(title),
    ...(description ? { description: m(description) } : {}),
  });
  const [assistants, email, chat, sdk] = deploymentFlow.channels.items;
  const [gateway, policies] = deploymentFlow.inside;
  return {
    steps: [m("step1"), m("step2"), m("step3"), m("step4")],
    flow: {
      channels: {
        title: m("channels"),
        items: [item(assistants!, "assistants"), item(email!, "email"), item(chat!, "chat"), item(sdk!, "sdk")],
      },
      boundary: m("boundary"),
      inside: [item(gateway!, "gateway", "gatewayText"), item(policies!, "policies", "policiesText")],
      evidence: item(deploymentFlow.evidence, "evidence", "evidenceText"),
      boundaryNote: m("boundaryNote"),
      description: m("description"),
    },
  };
}
