import { data, Link } from "react-router";
import type { Route } from "./+types/admin.navigation";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { formatDateTime } from "~/ui/admin/format";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { localeOfMenuKey, requireLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { MenuEditor } from "~/features/navigation/admin/menu-editor";
import { applyMenuEdit, parseMenuEdit, readMenuForm, type MenuDraft, type MenuErrors } from "~/features/navigation/menu-form";
import { isMenuKey, MENUS, type MenuKey } from "~/features/navigation/navigation";
import { defaultDraft, menuEditorViews, saveMenu } from "~/features/navigation/navigation.server";
import { getEnv } from "~/env.server";
import type { SiteLocale } from "~/features/i18n/site-locales";

// The site's menus (editors): the header's drop-down menus, the footer's columns and its bottom
// links. Each menu is its own form, saved on its own: labels, addresses, order, links and groups
// added or removed. The server checks every field (an address of this site must be a page, an
// outside one https) and refuses a save based on an older revision; every save is audited. A site
// in several languages has menus in each: the editor picks the language (?locale=de), English first.

const ROLE = "editor";

/** The languages an editor picks from (none on a site in one language), and the one asked for. */
function menuLocales(asked: string | null): { choices: { tag: string; label: string }[]; locale: SiteLocale | undefined } {
  const locales = getEnv().SITE_LOCALES;
  const english: SiteLocale = { tag: "en", prefix: "" };
  if (locales.length < 2) return { choices: [], locale: locales[0]?.tag === "en" ? english : locales[0] };
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const choices = locales.map(({ tag }) => ({ tag, label: `${names.of(tag) ?? tag} (${tag})` }));
  const locale = asked === null ? locales[0] : locales.find((candidate) => candidate.tag === asked);
  return { choices, locale };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, ROLE);
  const { choices, locale } = menuLocales(new URL(request.url).searchParams.get("locale"));
  if (!locale) throw data("This site has no menus in that language.", { status: 404 });
  const menus = await menuEditorViews(getDb(), locale);
  // The menus of one language are edited together: all of them must be in the person's languages.
  for (const view of menus) requireLocale(user, localeOfMenuKey(view.menu));
  return { menus, languages: choices, locale: choices.length ? locale.tag : undefined };
}

type ActionResult = {
  menu: MenuKey;
  problem?: string;
  done?: string;
  errors?: MenuErrors;
  /** The form's fields to show again (a refusal, or a rearranging button): never lost. */
  draft?: MenuDraft;
  /** The revision that draft is based on: a later save by someone else is still noticed. */
  revision?: number;
  unsaved?: boolean;
  /** A new key remounts the editor with the answer's fields; focus goes to this field. */
  formKey?: string;
  focus?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, ROLE);
  const menu = form.get("menu");
  const revisionText = String(form.get("revision") ?? "");
  if (!isMenuKey(menu) || !/^\d{1,9}$/.test(revisionText)) {
    return data({ problem: "This form is incomplete. Reload the page and try again." }, { status: 400 });
  }
  requireLocale(user, localeOfMenuKey(menu));
  const revision = Number(revisionText);
  const asked = form.get("locale");
  const { locale } = menuLocales(typeof asked === "string" ? asked : null);
  if (!locale) return data({ problem: "This site has no menus in that language." }, { status: 400 });
  const intent = String(form.get("intent") ?? "save");
  const draft = readMenuForm(menu, form);
  const formKey = crypto.randomUUID();

  // Adding, moving and removing rearrange the form; nothing is saved until "Save".
  const edit = parseMenuEdit(intent);
  if (edit) {
    const edited = applyMenuEdit(menu, draft, edit);
    return { menu, draft: edited.draft, revision, focus: edited.focus, unsaved: true, formKey } satisfies ActionResult;
  }
  if (intent === "reset")
    return { menu, draft: defaultDraft(menu, locale), revision, unsaved: true, formKey } satisfies ActionResult;
  if (intent !== "save") return data({ menu, problem: "Unknown action." } satisfies ActionResult, { status: 400 });

  const saved = await saveMenu(
    getDb(),
    { actor: { id: user.id, email: user.email }, ip: context.clientIp },
    { menu, revision, draft, locale },
  );
  if (!saved.ok) {
    // The editor's input stays in the form, with a message next to each field that needs one.
    return data(
      { menu, problem: saved.problem, errors: saved.errors, draft, revision, unsaved: true, formKey } satisfies ActionResult,
      { status: saved.status },
    );
  }
  const name = MENUS[menu].name;
  return {
    menu,
    done: saved.changed ? `${name} saved: every page shows them now.` : `Nothing had changed in the ${name.toLowerCase()}.`,
  } satisfies ActionResult;
}

export const meta: Route.MetaFunction = () => [{ title: `Navigation | ${site.company} back office` }];

export default function Navigation({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as (ActionResult | { problem: string; menu?: undefined }) | undefined;
  return (
    <>
      <PageHeading title="Navigation">
        The menus on every page of the site. A link goes to a page of this site (such as /company/about) or to an https://
        address.
      </PageHeading>
      {loaderData.languages.length ? (
        <nav aria-label="Language of the menus" className="mb-6">
          <ul className="flex flex-wrap gap-2">
            {loaderData.languages.map((language) => (
              <li key={language.tag}>
                <Link
                  to={`?locale=${encodeURIComponent(language.tag)}`}
                  aria-current={language.tag === loaderData.locale ? "page" : undefined}
                  className="inline-block rounded-full border border-slate-300 px-4 py-1.5 text-sm font-medium aria-[current=page]:border-brand-700 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
                >
                  {language.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {result && !result.menu && result.problem ? <Notice tone="error">{result.problem}</Notice> : null}
      {loaderData.menus.map((view) => {
        const mine = result?.menu === view.menu ? (result as ActionResult) : undefined;
        const { name, hint } = MENUS[view.menu];
        return (
          <Panel key={view.menu} title={name} id={`menu-${view.menu}`}>
            <p className="mb-4 text-sm text-muted">
              {hint}{" "}
              {view.isDefault
                ? "Not edited yet: the site's original menu."
                : `Last saved ${view.updatedAt ? formatDateTime(view.updatedAt) : ""}${view.updatedBy ? ` by ${view.updatedBy}` : ""}.`}
            </p>
            {view.invalid ? (
              <Notice tone="error">
                The saved menu is not valid (it was written outside the back office), so the site shows its original menu. Fix the
                fields and save.
              </Notice>
            ) : null}
            {mine?.problem ? <Notice tone="error">{mine.problem}</Notice> : null}
            {mine?.done ? <Notice tone="success">{mine.done}</Notice> : null}
            <MenuEditor
              key={mine?.formKey ?? `${loaderData.locale ?? ""}revision-${view.revision}`}
              menu={view.menu}
              draft={mine?.draft ?? view.draft}
              errors={mine?.errors ?? {}}
              revision={mine?.revision ?? view.revision}
              focus={mine?.focus}
              unsaved={mine?.unsaved}
              locale={loaderData.locale}
            />
          </Panel>
        );
      })}
    </>
  );
}
