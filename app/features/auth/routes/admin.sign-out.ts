import { redirect } from "react-router";
import type { Route } from "./+types/admin.sign-out";
import { endSession, requireAdminForm } from "~/features/auth/auth.server";
import { recordAudit } from "~/features/audit/audit.server";
import { getDb } from "~/db/index.server";

// Signing out ends this session (the others of the same person are ended from their account page).

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdminForm(request);
  await recordAudit(getDb(), { actor: user, action: "sign-out", target: { type: "user", id: user.id }, ip: context.clientIp });
  return redirect("/admin/sign-in?signed-out", { headers: { "Set-Cookie": await endSession(request) } });
}
