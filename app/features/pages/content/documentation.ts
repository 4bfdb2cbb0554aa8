import type { Item } from "~/ui/content-types";
import { site } from "~/config/site";

/** The documentation index: what each part of the docs covers. */
export const docSections: Item[] = [
  { icon: "rocket", title: "Getting started", description: "Create a workspace, deploy the inspection gateway and send your first scan in fifteen minutes." },
  { icon: "key-round", title: "Authentication", description: "API keys, SSO with SAML or OIDC, SCIM provisioning and role-based access control." },
  { icon: "shield-half", title: "Policies", description: "Built-in policy packs, custom detectors, data classes and how verdicts are scored." },
  { icon: "cable", title: "Integrations", description: "Connectors for AI assistants, Microsoft 365, Google Workspace, Slack and your SIEM." },
  { icon: "file-search", title: "Incidents and response", description: "Playbooks, automated actions, escalation routes and the incident timeline." },
  { icon: "book-open-check", title: "Audit and reporting", description: "The tamper-evident decision log, evidence exports and scheduled compliance reports." },
];

/** The sample shown on the documentation page: the SDK scanning a prompt before it reaches a model. */
export const sdkSnippet = `import { Sentinel } from "${site.sdkPackage}";

const sentinel = new Sentinel({
  apiKey: process.env.SENTINEL_API_KEY,
  baseUrl: "${site.apiBaseUrl}",
});

const scan = await sentinel.scans.create({
  channel: "ai-assistant",
  content: "Summarise the attached contract for Acme Corp",
  policies: ["pii", "prompt-injection", "secrets"],
});

if (scan.verdict === "block") {
  // Each finding names the policy that fired and where.
  console.warn(scan.findings);
} else {
  await callModel(scan.content); // redacted when a policy asked for it
}`;
