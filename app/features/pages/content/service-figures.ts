/**
 * The service figures the site states (the support page's channels and status panel, the proof
 * points, the console picture): one copy, so no page drifts from another. Content, not site
 * configuration: only the pages that state them carry them.
 */
export const serviceFigures = {
  uptime: "99.99%",
  uptimeWindow: "over the last 30 days",
  averageResponse: "45 ms",
  liveChatResponse: "2 minutes",
  emailResponse: "4 hours",
} as const;
