import type { BackgroundJob, JobContext, RunningJob } from "~/background-job.server";
import { auditHeadJob } from "~/features/audit/audit-head-job.server";
import { leadDeliveryJob } from "~/features/leads/delivery/worker.server";
import { leadRetentionJob } from "~/features/leads/retention-job.server";
import { leadSpoolReplayJob } from "~/features/leads/spool-replay.server";
import { logger } from "~/platform/logger.server";
import { pageViewFlushJob } from "~/features/visits/page-view-counter.server";
import { redirectHitsFlushJob } from "~/features/redirects/redirect-hits.server";
import { publishedPagesWatchJob } from "~/features/pages/published-pages.server";
import { publishedPositionsWatchJob } from "~/features/careers/positions.server";
import { cdnPurgeJob } from "~/features/cdn/purge-job.server";

// The work each server does beside the pages, started after the database is ready and stopped
// (in-flight work finished or handed back) before it closes. A job that must run on one server at a
// time takes a lease in the database itself (see ~/db/job-leases.server). Adding a job: import
// it and list it below.

const jobs: readonly BackgroundJob[] = [
  leadDeliveryJob,
  leadRetentionJob,
  pageViewFlushJob,
  leadSpoolReplayJob,
  auditHeadJob,
  redirectHitsFlushJob,
  publishedPagesWatchJob,
  publishedPositionsWatchJob,
  cdnPurgeJob,
];

let running: { job: BackgroundJob; handle: RunningJob }[] = [];

/** Starts every job; one that fails to start is logged and the others still start. */
export function startJobs(context: JobContext): void {
  for (const job of jobs) {
    try {
      const handle = job.start(context);
      if (handle) running.push({ job, handle });
    } catch (error) {
      logger.error({ err: error, job: job.name }, `starting ${job.name} failed`);
    }
  }
}

/** Stops every started job, all at once; resolves when each has finished or handed back its work. */
export async function stopJobs(): Promise<void> {
  const stopping = running;
  running = [];
  await Promise.all(
    stopping.map(({ job, handle }) =>
      handle.stop().catch((error: unknown) => logger.error({ err: error, job: job.name }, `stopping ${job.name} failed`)),
    ),
  );
}
