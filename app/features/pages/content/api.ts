export type Endpoint = { method: "GET" | "POST" | "PUT" | "DELETE"; path: string; description: string };

/** Six example endpoints of the API reference. */
export const apiEndpoints: Endpoint[] = [
  { method: "POST", path: "/scans", description: "Scan a prompt, message or file against your policies and return a verdict with its findings." },
  { method: "GET", path: "/scans/{scan_id}", description: "Retrieve one scan: its verdict, the policies that fired and the redacted content." },
  { method: "GET", path: "/policies", description: "List the policies of the workspace with their status and version." },
  { method: "PUT", path: "/policies/{policy_id}", description: "Create or replace a policy from a JSON definition." },
  { method: "GET", path: "/incidents", description: "List incidents, filtered by severity, status, channel or time range." },
  { method: "POST", path: "/incidents/{incident_id}/actions", description: "Run a response action on an incident: redact, block, quarantine or escalate." },
];

export const apiBasics: { title: string; description: string }[] = [
  { title: "Authentication", description: "Send your API key as a bearer token in the Authorization header. Keys are scoped to one workspace and can be rotated at any time." },
  { title: "Rate limits", description: "1,000 requests per minute per workspace by default; each response carries RateLimit headers." },
  { title: "Errors", description: "Errors use standard HTTP status codes with a JSON body holding a machine-readable code and a message." },
];
