import { checkDatabase } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { serverLeadSpool } from "~/features/leads/spool.server";
import { isDraining } from "~/platform/draining.server";

// For load balancers and orchestrators: 200 when the database answers, and also while it cannot be
// reached but this server's lead spool can still keep leads ("degraded": a form post is still
// acknowledged honestly, so pulling every server out at once would lose more than it saves);
// 503 otherwise. The spool's depth is in the body either way (docs/decisions/014-lead-spool.md).
// A server that is shutting down answers 503 "draining": it finishes what it has, takes nothing new.
/** Room for one more lead of the largest form, or the spool counts as full. */
const LARGEST_LEAD_BYTES = 65_536;

export async function loader() {
  if (isDraining()) {
    return Response.json({ status: "draining" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
  const database = await checkDatabase();
  const spool = spoolReport();
  const status = database === "ok" ? "ok" : database === "unreachable" && spool.accepting ? "degraded" : "error";
  return Response.json(
    { status, database, spool },
    { status: status === "error" ? 503 : 200, headers: { "Cache-Control": "no-store" } },
  );
}

function spoolReport() {
  try {
    const spool = serverLeadSpool(getEnv());
    const { entries, bytes } = spool.depth();
    return {
      entries,
      bytes,
      maxBytes: spool.maxBytes,
      rejected: spool.rejected(),
      accepting: bytes + LARGEST_LEAD_BYTES <= spool.maxBytes,
    };
  } catch {
    return { accepting: false, problem: "the lead spool directory cannot be used" };
  }
}
