import { checkDatabase } from "~/lib/db/index.server";

// For load balancers and orchestrators: 200 only when the database answers.
export async function loader() {
  const healthy = await checkDatabase();
  return Response.json(
    { status: healthy ? "ok" : "error" },
    { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
