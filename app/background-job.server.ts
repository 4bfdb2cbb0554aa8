import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Env } from "~/env.server";

// What a background job is: the features define their jobs, app/jobs.server.ts starts them.

export type JobContext = { env: Env; getDb: () => Kysely<Database> };

export type RunningJob = { stop: () => Promise<void> };

/** A background job: `start` returns undefined when the job has nothing to do on this server (not configured). */
export type BackgroundJob = { name: string; start: (context: JobContext) => RunningJob | undefined };
