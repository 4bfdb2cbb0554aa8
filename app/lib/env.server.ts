import { z } from "zod";

// Configuration (DESIGN.md §3), validated once at boot. Every variable is optional.
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .default("file:./data/site.db")
    .refine((url) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(url), {
      message: "must be file:PATH (embedded SQLite) or postgres://… / postgresql://… (PostgreSQL)",
    }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SEED: z.enum(["auto", "never"]).default("auto"),
  SITE_URL: z
    .url({ protocol: /^https?$/, message: "must be an absolute http(s) URL such as https://quorvant.com" })
    .optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  FORM_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
  TRUST_PROXY: z
    .string()
    .regex(/^(\d+|true|false)?$/, "must be 1 (or another hop count), true or false")
    .optional(),
});

export type Env = z.infer<typeof EnvSchema> & { SITE_URL: string };

let cached: Env | undefined;

/** Parses process.env; throws one readable line naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const env = parsed.data;
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return { ...env, SITE_URL: siteUrl };
}

export function getEnv(): Env {
  cached ??= loadEnv();
  return cached;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}
