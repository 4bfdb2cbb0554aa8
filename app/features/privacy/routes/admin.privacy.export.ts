import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.privacy.export";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { findInThisServersSpool } from "~/features/privacy/privacy.server";
import { exportSubjectData, subjectAddress } from "~/features/privacy/db/data-subject.server";
import { getDb } from "~/db/index.server";

// Everything held about one address as a JSON file (owners only), posted from the privacy page so
// the address stays out of URLs. The export is audited with a hash of the address. It lists what
// this server's lead spool keeps about the address too (leads posted while the database was down).

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "owner");
  return redirect("/admin/privacy");
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, "owner");
  const address = subjectAddress.safeParse(String(form.get("email") ?? ""));
  if (!address.success) return data({ message: "Look the address up again, then download its export." }, { status: 400 });
  const body = await exportSubjectData(
    getDb(),
    address.data,
    { actor: { id: user.id, email: user.email }, ip: context.clientIp },
    new Date(),
    await findInThisServersSpool(address.data),
  );
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="privacy-export-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
