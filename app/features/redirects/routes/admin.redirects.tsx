import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin.redirects";
import { CsrfField } from "~/ui/admin/csrf-field";
import { LabelledControl } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { formatDateTime } from "~/ui/admin/format";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import {
  REDIRECT_KINDS,
  REDIRECT_SOURCES,
  type RedirectFieldErrors,
  type RedirectFormValues,
  type RedirectKind,
} from "~/features/redirects/redirect-rules";
import { deleteRedirect, listRedirects, saveRedirect, type RedirectListItem } from "~/features/redirects/redirects.server";

// Redirects (editors): every old address that leads somewhere else or is gone, with how often it
// was used; add, change and delete them. A post's old slugs are listed too, changed on the post.

const ROLE = "editor";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, ROLE);
  return { redirects: await listRedirects(getDb()) };
}

type ActionResult =
  | { done: string }
  | { problem: string }
  | { intent: "save"; id: string; fieldErrors: RedirectFieldErrors; values: RedirectFormValues };

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, ROLE);
  const actor = { id: user.id, email: user.email, ip: context.clientIp };
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");

  if (intent === "save") {
    const input = { from: form.get("from") ?? "", kind: form.get("kind") ?? "", target: form.get("target") ?? "" };
    const result = await saveRedirect(getDb(), input, actor, { id: id || undefined, siteUrl: getEnv().SITE_URL });
    if (result.ok) return data<ActionResult>({ done: id ? "The redirect was changed." : "The redirect was added." });
    if ("notFound" in result) return data<ActionResult>({ problem: "That redirect is no longer there." }, { status: 404 });
    return data<ActionResult>({ intent: "save", id, fieldErrors: result.fieldErrors, values: result.values }, { status: 400 });
  }
  if (intent === "delete") {
    const result = await deleteRedirect(getDb(), id, actor);
    if (result.ok) return data<ActionResult>({ done: "The redirect was deleted." });
    return data<ActionResult>({ problem: "That redirect is no longer there." }, { status: 404 });
  }
  return data<ActionResult>({ problem: "Unknown action." }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: `Redirects | ${site.company} back office` }];

export default function Redirects({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  const refused = result && "fieldErrors" in result ? result : undefined;
  const { redirects } = loaderData;
  return (
    <>
      <PageHeading title="Redirects">
        Old addresses that lead to a page of the site or an https address, or answer that the page is gone. A redirect is used
        only where the site has no page.
      </PageHeading>
      {result && "problem" in result ? <Notice tone="error">{result.problem}</Notice> : null}
      {result && "done" in result ? <Notice tone="success">{result.done}</Notice> : null}

      <Panel title="Add a redirect" id="add">
        <RedirectForm
          idPrefix="new"
          resetKey={result && "done" in result ? `${result.done} ${redirects.length}` : ""}
          errors={refused?.id === "" ? refused.fieldErrors : undefined}
          values={refused?.id === "" ? refused.values : undefined}
          submitLabel="Add redirect"
        />
      </Panel>

      <Panel title={`Redirects (${redirects.length})`} id="list">
        {redirects.length === 0 ? (
          <p className="text-sm text-muted">No redirects yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {redirects.map((item) => (
              <RedirectItem key={item.id ?? item.from} item={item} refused={refused?.id === item.id ? refused : undefined} />
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}

function RedirectItem({ item, refused }: { item: RedirectListItem; refused?: Extract<ActionResult, { intent: "save" }> }) {
  return (
    <li className="py-4 text-sm" aria-label={item.from}>
      <p className="font-medium break-all">
        <code>{item.from}</code> → {item.kind === "gone" ? <span>gone</span> : <code>{item.target}</code>}
      </p>
      <p className="mt-1 text-muted">
        {REDIRECT_KINDS[item.kind].label} · {REDIRECT_SOURCES[item.source]}
        {item.post ? (
          <>
            {" "}
            (<Link to={`/admin/posts/${item.post.id}`}>{item.post.title}</Link>
            {item.post.live ? "" : ", not public: answers not found"})
          </>
        ) : null}{" "}
        · used {item.hits === 1 ? "once" : `${item.hits} times`}
        {item.lastUsedAt ? `, last ${formatDateTime(item.lastUsedAt)}` : ""}
        {item.updatedBy ? ` · changed ${formatDateTime(item.updatedAt)} by ${item.updatedBy}` : ""}
      </p>
      {item.id ? (
        <details className="mt-2" open={refused ? true : undefined}>
          <summary className="cursor-pointer text-brand-700">Change or delete</summary>
          <div className="mt-3 space-y-4">
            <RedirectForm
              idPrefix={`r-${item.id}`}
              id={item.id}
              errors={refused?.fieldErrors}
              values={refused?.values ?? { from: item.from, kind: item.kind, target: item.target }}
              submitLabel="Save changes"
            />
            <Form method="post">
              <CsrfField />
              <input type="hidden" name="id" value={item.id} />
              <button type="submit" name="intent" value="delete" className={buttonClasses("danger")}>
                Delete redirect
              </button>
            </Form>
          </div>
        </details>
      ) : (
        <p className="mt-1 text-muted">Follows the post: rename the post to change it.</p>
      )}
    </li>
  );
}

function RedirectForm({
  idPrefix,
  id,
  errors,
  values,
  submitLabel,
  resetKey = "",
}: {
  resetKey?: string;
  idPrefix: string;
  id?: string;
  errors?: RedirectFieldErrors;
  values?: RedirectFormValues;
  submitLabel: string;
}) {
  // Fields keyed by what they show, so a refused entry comes back as typed and a saved one as stored.
  const key = `${JSON.stringify(values ?? {})} ${resetKey}`;
  return (
    <Form method="post" className="space-y-4" key={key}>
      <CsrfField />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <LabelledControl id={`${idPrefix}-from`} label="Old address" error={errors?.from}>
        {(props) => (
          <input {...props} name="from" type="text" required defaultValue={values?.from ?? ""} placeholder="/old-page" />
        )}
      </LabelledControl>
      <LabelledControl id={`${idPrefix}-kind`} label="Answer" error={errors?.kind}>
        {(props) => (
          <select {...props} name="kind" defaultValue={values?.kind ?? "permanent"}>
            {(Object.keys(REDIRECT_KINDS) as RedirectKind[]).map((kind) => (
              <option key={kind} value={kind}>
                {REDIRECT_KINDS[kind].label}
              </option>
            ))}
          </select>
        )}
      </LabelledControl>
      <LabelledControl id={`${idPrefix}-target`} label="Leads to (not for gone)" error={errors?.target}>
        {(props) => (
          <input
            {...props}
            name="target"
            type="text"
            defaultValue={values?.target ?? ""}
            placeholder="/company/about or https://example.com/page"
          />
        )}
      </LabelledControl>
      <button type="submit" name="intent" value="save" className={buttonClasses()}>
        {submitLabel}
      </button>
    </Form>
  );
}
