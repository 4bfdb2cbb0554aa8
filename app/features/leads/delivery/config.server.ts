import { getEnv, type Env } from "~/env.server";
import type { DeliveryDestination } from "~/db/schema";
import { LEAD_FORM_IDS, type LeadFormId } from "~/features/leads/registry";
import { leadFormServerList } from "~/features/leads/registry.server";

// Where leads go, from the environment: email through SMTP (each form names the setting listing
// its recipients) and a signed webhook per form. Each is optional.

export type LeadForm = LeadFormId;

export type DeliveryConfig = {
  email?: { smtpUrl: string; allowCleartext: boolean; from: string; recipients: Partial<Record<LeadForm, string[]>> };
  webhook?: { secret: string; urls: Partial<Record<LeadForm, string>> };
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
  leaseMs: number;
  pollMs: number;
  backlogLogMs: number;
  /** While the server is busy, a due delivery waits up to this long for a quieter moment (0: never waits). */
  maxDeferMs: number;
};

export function deliveryConfigFrom(env: Env): DeliveryConfig {
  const recipients: Partial<Record<LeadForm, string[]>> = {};
  const urls: Partial<Record<LeadForm, string>> = {};
  for (const form of leadFormServerList) {
    const to = env[form.mailTo] ?? [];
    if (to.length) recipients[form.id] = to;
    const url = env[form.webhookSetting];
    if (url) urls[form.id] = url;
  }
  return {
    email:
      env.SMTP_URL && env.MAIL_FROM && Object.keys(recipients).length
        ? { smtpUrl: env.SMTP_URL, allowCleartext: env.SMTP_ALLOW_CLEARTEXT, from: env.MAIL_FROM, recipients }
        : undefined,
    webhook: env.WEBHOOK_SECRET && Object.keys(urls).length ? { secret: env.WEBHOOK_SECRET, urls } : undefined,
    maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
    retryBaseMs: env.DELIVERY_RETRY_BASE_MS,
    retryMaxMs: env.DELIVERY_RETRY_MAX_MS,
    timeoutMs: env.DELIVERY_TIMEOUT_MS,
    leaseMs: env.DELIVERY_LEASE_MS,
    pollMs: env.DELIVERY_POLL_MS,
    backlogLogMs: env.DELIVERY_BACKLOG_LOG_MS,
    maxDeferMs: env.DELIVERY_MAX_DEFER_MS,
  };
}

let cached: DeliveryConfig | undefined;

/** The delivery configuration of this process's environment. */
export function getDeliveryConfig(): DeliveryConfig {
  cached ??= deliveryConfigFrom(getEnv());
  return cached;
}

/** The destinations a submission of `form` is delivered to. */
export function destinationsFor(config: DeliveryConfig, form: LeadForm): DeliveryDestination[] {
  const destinations: DeliveryDestination[] = [];
  if (config.email?.recipients[form]?.length) destinations.push("email");
  if (config.webhook?.urls[form]) destinations.push("webhook");
  return destinations;
}

/** What is configured, for the start-up log line: never a secret, a password or a webhook URL (its path may be a token). */
export function describeDeliveries(config: DeliveryConfig): Record<string, unknown> | undefined {
  if (!config.email && !config.webhook) return undefined;
  const forms = LEAD_FORM_IDS;
  return {
    email: config.email
      ? { smtpHost: new URL(config.email.smtpUrl).host, forms: forms.filter((form) => config.email?.recipients[form]) }
      : null,
    webhook: config.webhook ? { forms: forms.filter((form) => config.webhook?.urls[form]) } : null,
  };
}

/** The wait before retry number `attempt` (1 = the first retry): doubling from the base up to the cap, ±20 % jitter. */
export function retryDelayMs(config: DeliveryConfig, attempt: number): number {
  const plain = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (0.8 + Math.random() * 0.4));
}
