import { redirect } from "react-router";
import type { Route } from "./+types/admin.audit.export";
import { requireRole } from "~/features/auth/auth.server";
import { readAuditQuery } from "~/features/audit/audit-filter.server";
import { recordAudit } from "~/features/audit/audit.server";
import { startedOnAnotherSite } from "~/features/auth/cross-site.server";
import { toCsv } from "~/platform/csv.server";
import { listAuditEntries, type AuditCursor } from "~/features/audit/db/audit-log.server";
import { getDb } from "~/db/index.server";

// The audit log's current view as CSV (owners only), read a thousand entries at a time and sent
// as it is read. The export itself is audited, with the filters it used; a link from another site
// exports nothing in the owner's name and shows the same view instead.

const COLUMNS = ["created_at", "actor_email", "actor_id", "action", "target_type", "target_id", "details", "ip"];
const BATCH = 1000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "owner");
  const url = new URL(request.url);
  if (startedOnAnotherSite(request)) throw redirect(`/admin/audit${url.search}`, 303);
  const { filter, values } = readAuditQuery(url);
  await recordAudit(getDb(), {
    actor: user,
    action: "audit.exported",
    details: { filters: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")) },
    ip: context.clientIp,
  });
  let after: AuditCursor | undefined;
  let first = true;
  const body = new ReadableStream<string>({
    async pull(controller) {
      const page = await listAuditEntries(getDb(), filter, { after, limit: BATCH });
      const rows = page.entries.map((entry) => [
        entry.createdAt,
        entry.actorEmail,
        entry.actorId ?? "",
        entry.action,
        entry.targetType,
        entry.targetId,
        JSON.stringify(entry.details),
        entry.ip,
      ]);
      controller.enqueue(toCsv(COLUMNS, rows, { header: first }));
      first = false;
      after = page.next;
      if (!after) controller.close();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body.pipeThrough(new TextEncoderStream()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
