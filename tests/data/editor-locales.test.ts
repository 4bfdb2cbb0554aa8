import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { csrfToken, newCsrfSecret } from "~/features/auth/csrf.server";
import { createSignedInSession } from "~/features/auth/session.server";
import { createUser, findUserById, setLocales, type AdminUser } from "~/features/auth/db/admin-users.server";
import { canEditLocale, localeOfMenuKey } from "~/features/auth/locales.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import type { Database } from "~/db/schema";
import { newPageDraft, savePageDraft } from "~/features/pages/page-editor.server";
import { action as pageAction, loader as pageLoader } from "~/features/pages/routes/admin.page";
import { action as pagesAction, loader as pagesLoader } from "~/features/pages/routes/admin.pages";
import { action as revisionsAction, loader as revisionsLoader } from "~/features/pages/routes/admin.page.revisions";
import { loader as pagePreviewLoader } from "~/features/pages/routes/admin.page.preview";
import { action as postAction, loader as postLoader } from "~/features/blog/routes/admin.post";
import { action as postRevisionsAction, loader as postRevisionsLoader } from "~/features/blog/routes/admin.post.revisions";
import { action as newPostAction } from "~/features/blog/routes/admin.posts.new";
import { action as postsAction, loader as postsLoader } from "~/features/blog/routes/admin.posts";
import { action as positionAction, loader as positionLoader } from "~/features/careers/routes/admin.position";
import {
  action as positionRevisionsAction,
  loader as positionRevisionsLoader,
} from "~/features/careers/routes/admin.position.revisions";
import { loader as positionPreviewLoader } from "~/features/careers/routes/admin.position.preview";
import { action as positionsAction } from "~/features/careers/routes/admin.positions";
import { loader as legalPreviewLoader } from "~/features/legal/routes/admin.legal.preview";
import { newPosition } from "~/features/careers/position-editor.server";
import { savePosition } from "~/features/careers/position-documents.server";
import { action as navigationAction, loader as navigationLoader } from "~/features/navigation/routes/admin.navigation";
import { action as userAction, loader as userLoader } from "~/features/auth/routes/admin.user";
import { action as usersAction, loader as usersLoader } from "~/features/auth/routes/admin.users";
import { admitInvited, lookUpInvitation } from "~/features/auth/invitations.server";
import { action as legalAction, loader as legalLoader } from "~/features/legal/routes/admin.legal";
import { action as versionAction, loader as versionLoader } from "~/features/legal/routes/admin.legal.version";
import { createLegalDraft } from "~/features/legal/editing.server";
import { engines } from "./support/engines";
import { answerOf, withSiteLocales } from "./support/route-answers";
import { addLegal, addPost } from "./support/fixtures";

// People limited to languages, on both engines, through the editors' own loaders and actions with
// real sessions: content in another language answers 403 and nothing changes; an address of
// another language cannot be taken; owners set the limit on a person's page, audited.

const ORIGIN = "http://localhost:3000";
type Session = { cookie: string; csrf: string };
type Args = { request: Request; context: AppLoadContext; params: Record<string, string> };

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`languages of a person on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let owner: AdminUser;
    let german: AdminUser;
    let anyLanguage: AdminUser;
    let englishPage: string;
    let germanPage: string;

    withSiteLocales("en,de");
    afterAll(async () => {
      await engine.cleanup();
    });

    beforeEach(async () => {
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      owner = await createUser(db, { email: "owner@example.com", roles: ["owner"] });
      german = await createUser(db, { email: "redaktion@example.com", roles: ["editor"] });
      await setLocales(db, german.id, ["de"]);
      anyLanguage = await createUser(db, { email: "editor@example.com", roles: ["editor"] });
      const editor = { actor: { id: owner.id, email: owner.email }, ip: "192.0.2.1" };
      const made = await Promise.all(
        ["/campaign", "/de/kampagne"].map(async (path) => {
          const saved = await savePageDraft(db, editor, { baseRevision: 0, draft: newPageDraft({ path, title: "Campaign" }) });
          if (!saved.ok) throw new Error(`no page at ${path}: ${JSON.stringify(saved)}`);
          return saved.id;
        }),
      );
      [englishPage, germanPage] = made as [string, string];
      // The page's language as the content core records it from its address.
      await db.updateTable("content_documents").set({ locale: "de" }).where("id", "=", germanPage).execute();
    });
    afterEach(async () => {
      await closeDatabase();
    });

    async function signIn(user: AdminUser): Promise<Session> {
      const secret = newCsrfSecret();
      const setCookie = await createSignedInSession({ userId: user.id, authMethod: "passkey", csrfSecret: secret, ip: "192.0.2.1", userAgent: "Vitest" });
      return { cookie: setCookie.split(";")[0]!, csrf: csrfToken(secret) };
    }

    const context = () => ({ clientIp: "192.0.2.1", requestId: randomUUID() }) as AppLoadContext;

    function get(route: (args: never) => Promise<unknown>, path: string, session: Session, params: Record<string, string> = {}) {
      const request = new Request(`${ORIGIN}${path}`, { headers: { Cookie: session.cookie } });
      return answerOf(() => route({ request, context: context(), params } satisfies Args as never));
    }

    function post(
      route: (args: never) => Promise<unknown>,
      path: string,
      session: Session,
      fields: Record<string, string | string[]>,
      params: Record<string, string> = {},
    ) {
      const body = new URLSearchParams({ csrf: session.csrf });
      for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
      const request = new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { Cookie: session.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body,
      });
      return answerOf(() => route({ request, context: context(), params } satisfies Args as never));
    }

    const revisionOf = async (id: string) =>
      Number((await db.selectFrom("content_documents").select("revision").where("id", "=", id).executeTakeFirstOrThrow()).revision);

    const saveForm = (path: string, revision: number) => ({
      intent: "save",
      revision: String(revision),
      path,
      title: "Kampagne",
      description: "Kampagne",
      "blocks.0.type": "proof-band",
    });

    it("answers 403 on an English page's editor, its revisions and its saving to an editor limited to Deutsch", async () => {
      const session = await signIn(german);
      const opened = await get(pageLoader, `/admin/pages/${englishPage}`, session, { pageId: englishPage });
      expect(opened.status).toBe(403);
      expect(opened.body).toMatchObject({ message: expect.stringContaining("English") });
      expect((await get(revisionsLoader, `/admin/pages/${englishPage}/revisions`, session, { pageId: englishPage })).status).toBe(403);

      const before = await revisionOf(englishPage);
      const saved = await post(pageAction, `/admin/pages/${englishPage}`, session, saveForm("/campaign", before), {
        pageId: englishPage,
      });
      expect(saved.status).toBe(403);
      expect(await revisionOf(englishPage)).toBe(before);
    });

    it("lets the same editor open and save a German page, but not move it out of German", async () => {
      const session = await signIn(german);
      expect((await get(pageLoader, `/admin/pages/${germanPage}`, session, { pageId: germanPage })).status).toBe(200);

      const before = await revisionOf(germanPage);
      const saved = await post(pageAction, `/admin/pages/${germanPage}`, session, saveForm("/de/kampagne", before), {
        pageId: germanPage,
      });
      expect(saved).toMatchObject({ status: 200, body: { done: `Saved as revision ${before + 1}.` } });

      const moved = await post(pageAction, `/admin/pages/${germanPage}`, session, saveForm("/kampagne", before + 1), {
        pageId: germanPage,
      });
      expect(moved.status).toBe(403);
      expect(moved.body).toMatchObject({ errors: { path: expect.stringContaining("English") } });
      expect(await revisionOf(germanPage)).toBe(before + 1);
    });

    it("refuses creating a page at an English address to an editor limited to Deutsch, and creates a German one", async () => {
      const session = await signIn(german);
      const english = await post(pagesAction, "/admin/pages", session, { path: "/neu", title: "Neu" });
      expect(english.status).toBe(403);
      expect(await db.selectFrom("content_documents").select("id").where("path", "=", "/neu").executeTakeFirst()).toBeUndefined();
      const created = await post(pagesAction, "/admin/pages", session, { path: "/de/neu", title: "Neu" });
      expect(created.status).toBe(302);
    });

    it("leaves editors without a limit, and owners, every language", async () => {
      for (const user of [anyLanguage, owner]) {
        const session = await signIn(user);
        expect((await get(pageLoader, `/admin/pages/${englishPage}`, session, { pageId: englishPage })).status).toBe(200);
        expect((await get(pageLoader, `/admin/pages/${germanPage}`, session, { pageId: germanPage })).status).toBe(200);
        expect((await get(navigationLoader, "/admin/navigation", session)).status).toBe(200);
      }
    });

    it("keeps the English menus from an editor limited to Deutsch", async () => {
      const session = await signIn(german);
      expect((await get(navigationLoader, "/admin/navigation", session)).status).toBe(403);
      const saved = await post(navigationAction, "/admin/navigation", session, { menu: "header", revision: "0", intent: "save" });
      expect(saved.status).toBe(403);
    });

    it("keeps a legal person limited to Deutsch to German versions of the legal documents", async () => {
      const legal = await createUser(db, { email: "recht@example.com", roles: ["legal"] });
      await setLocales(db, legal.id, ["de"]);
      const editor = { actor: { id: owner.id, email: owner.email }, ip: "192.0.2.1" };
      const drafts = [];
      for (const type of ["privacy-policy", "terms-of-use"] as const) {
        const created = await createLegalDraft(db, editor, { type });
        if (!created.ok) throw new Error(`no ${type} draft`);
        drafts.push(created.value.id);
      }
      const [englishDraft, germanDraft] = drafts as [string, string];
      await db.updateTable("legal_documents").set({ locale: "de" }).where("id", "=", germanDraft).execute();

      const session = await signIn(legal);
      expect((await get(versionLoader, `/admin/legal/versions/${englishDraft}`, session, { versionId: englishDraft })).status).toBe(403);
      const discard = { intent: "discard", revision: "1" };
      const refused = await post(versionAction, `/admin/legal/versions/${englishDraft}`, session, discard, { versionId: englishDraft });
      expect(refused.status).toBe(403);
      expect(await db.selectFrom("legal_documents").select("id").where("id", "=", englishDraft).executeTakeFirst()).toBeDefined();
      expect((await get(versionLoader, `/admin/legal/versions/${germanDraft}`, session, { versionId: germanDraft })).status).toBe(200);
      // A new draft from an English version (or from none) is English.
      expect((await post(legalAction, "/admin/legal", session, { intent: "new-draft", type: "terms-of-use" })).status).toBe(403);
      const fromEnglish = { intent: "new-draft", type: "privacy-policy", from: englishDraft };
      expect((await post(legalAction, "/admin/legal", session, fromEnglish)).status).toBe(403);
    });

    it("answers 403 on every editor of English content to a person limited to Deutsch, and opens the German one", async () => {
      const person = await createUser(db, { email: "uebersetzung@example.com", roles: ["editor", "legal", "recruiter"] });
      await setLocales(db, person.id, ["de"]);
      const editor = { actor: { id: owner.id, email: owner.email }, ip: "192.0.2.1" };
      const ids = { page: { en: englishPage, de: germanPage }, post: { en: "", de: "" }, position: { en: "", de: "" }, legal: { en: "", de: "" } };
      for (const locale of ["en", "de"] as const) {
        const post = await addPost(db, { slug: `post-${locale}`, title: `Post ${locale}`, published_date: "2026-01-01T00:00:00.000Z" });
        await db.updateTable("blog_posts").set({ locale }).where("id", "=", post.id).execute();
        ids.post[locale] = post.id;
        const position = await savePosition(db, editor, {
          baseRevision: 0,
          position: newPosition({ title: `Engineer ${locale}`, team: "Engineering", location: "Berlin" }),
        });
        if (!position.ok) throw new Error("no position");
        await db.updateTable("content_documents").set({ locale }).where("id", "=", position.id).execute();
        ids.position[locale] = position.id;
        const legal = await createLegalDraft(db, editor, { type: locale === "en" ? "privacy-policy" : "terms-of-use" });
        if (!legal.ok) throw new Error("no legal draft");
        await db.updateTable("legal_documents").set({ locale }).where("id", "=", legal.value.id).execute();
        ids.legal[locale] = legal.value.id;
      }
      type Route = (args: never) => Promise<unknown>;
      const table: { name: string; kind: keyof typeof ids; param: string; path: string; loader: Route; action?: Route }[] = [
        { name: "page editor", kind: "page", param: "pageId", path: "/admin/pages/:id", loader: pageLoader, action: pageAction },
        { name: "page revisions", kind: "page", param: "pageId", path: "/admin/pages/:id/revisions", loader: revisionsLoader, action: revisionsAction },
        { name: "page preview", kind: "page", param: "pageId", path: "/admin/pages/:id/preview", loader: pagePreviewLoader },
        { name: "post editor", kind: "post", param: "postId", path: "/admin/posts/:id", loader: postLoader, action: postAction },
        { name: "post revisions", kind: "post", param: "postId", path: "/admin/posts/:id/revisions", loader: postRevisionsLoader, action: postRevisionsAction },
        { name: "position editor", kind: "position", param: "positionId", path: "/admin/positions/:id", loader: positionLoader, action: positionAction },
        { name: "position revisions", kind: "position", param: "positionId", path: "/admin/positions/:id/revisions", loader: positionRevisionsLoader, action: positionRevisionsAction },
        { name: "position preview", kind: "position", param: "positionId", path: "/admin/positions/:id/preview", loader: positionPreviewLoader },
        { name: "legal version", kind: "legal", param: "versionId", path: "/admin/legal/versions/:id", loader: versionLoader, action: versionAction },
        { name: "legal preview", kind: "legal", param: "versionId", path: "/admin/legal/versions/:id/preview", loader: legalPreviewLoader },
      ];
      const session = await signIn(person);
      const answers: Record<string, number> = {};
      const expected: Record<string, number | "not 403"> = {};
      for (const row of table) {
        for (const locale of ["en", "de"] as const) {
          const id = ids[row.kind][locale];
          const path = row.path.replace(":id", id);
          answers[`GET ${row.name} (${locale})`] = (await get(row.loader, path, session, { [row.param]: id })).status;
          expected[`GET ${row.name} (${locale})`] = locale === "en" ? 403 : 200;
          if (row.action) {
            // A form that changes nothing even when allowed: refused for its content, never for its language, in German.
            const status = (await post(row.action, path, session, { intent: "none" }, { [row.param]: id })).status;
            answers[`POST ${row.name} (${locale})`] = status;
            expected[`POST ${row.name} (${locale})`] = locale === "en" ? 403 : status === 403 ? "not 403" : status;
          }
        }
      }
      expect(answers).toEqual(expected);

      // New content is English unless it says otherwise: refused to this person.
      expect((await post(newPostAction, "/admin/posts/new", session, { intent: "save", title: "Neu" })).status).toBe(403);
      expect((await post(positionsAction, "/admin/positions", session, { title: "Neu", team: "Engineering" })).status).toBe(403);
    });

    /** What a translator's start leaves behind: the rows of every translatable kind and the audit entries. */
    async function footprint() {
      const count = async (table: "content_documents" | "blog_posts" | "legal_documents" | "audit_log") =>
        Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow()).count);
      return {
        documents: await count("content_documents"),
        posts: await count("blog_posts"),
        legal: await count("legal_documents"),
        audit: await count("audit_log"),
      };
    }

    const englishOnly = async () => {
      const person = await createUser(db, { email: "english@example.com", roles: ["editor", "legal"] });
      await setLocales(db, person.id, ["en"]);
      return person;
    };

    type ListRow = {
      id: string;
      translations: { locale: string; status: string; startable?: boolean }[];
      translationOf: { language: string; href: string | null } | null;
    };
    const rowOf = (body: unknown, key: "pages" | "posts", id: string) =>
      ((body as Record<string, ListRow[]>)[key] ?? []).find((row) => row.id === id);

    it("lets an editor limited to Deutsch start an English page's German translation from the Pages list, and read its source beside it", async () => {
      const session = await signIn(german);
      const list = await get(pagesLoader, "/admin/pages", session);
      expect(rowOf(list.body, "pages", englishPage)?.translations).toEqual([
        expect.objectContaining({ locale: "de", status: "missing", startable: true }),
      ]);
      // Someone limited to English sees the same Missing, without the button.
      const english = await signIn(await englishOnly());
      const theirs = await get(pagesLoader, "/admin/pages", english);
      expect(rowOf(theirs.body, "pages", englishPage)?.translations).toEqual([
        expect.not.objectContaining({ startable: true }),
      ]);

      const started = await post(pagesAction, "/admin/pages", session, { intent: "translate", source: englishPage, translateInto: "de" });
      const made = await db
        .selectFrom("content_documents")
        .select(["id", "locale", "path", "translation_of"])
        .where("translation_of", "=", englishPage)
        .executeTakeFirstOrThrow();
      expect(made).toMatchObject({ locale: "de", path: "/de/campaign" });
      expect(started.status).toBe(302);
      const { entries } = await listAuditEntries(db, { action: "page.translation-created" }, { limit: 5 });
      expect(entries).toMatchObject([{ actorId: german.id, targetId: made.id }]);

      // Its editor opens, with the English source beside the fields (no link to an editor they may not open).
      const editor = await get(pageLoader, `/admin/pages/${made.id}?translated=1`, session, { pageId: made.id });
      expect(editor.status).toBe(200);
      expect(editor.body).toMatchObject({
        translated: true,
        translation: { language: "Deutsch", sourceTitle: "Campaign", sourceHref: null },
        source: expect.anything(),
      });
      expect(JSON.stringify((editor.body as { source: unknown }).source)).toContain("Campaign");
      // The English page itself stays closed to them.
      expect((await get(pageLoader, `/admin/pages/${englishPage}`, session, { pageId: englishPage })).status).toBe(403);
      // An editor of every language is linked to the source.
      const anyone = await get(pageLoader, `/admin/pages/${made.id}`, await signIn(anyLanguage), { pageId: made.id });
      expect(anyone.body).toMatchObject({ translation: { sourceHref: `/admin/pages/${englishPage}` } });
      // In the list too: the translation names its English page, linked only for who may open it.
      expect(rowOf((await get(pagesLoader, "/admin/pages", session)).body, "pages", made.id)?.translationOf).toEqual({
        language: "Deutsch",
        href: null,
      });
      expect(rowOf((await get(pagesLoader, "/admin/pages", await signIn(anyLanguage))).body, "pages", made.id)?.translationOf).toEqual({
        language: "Deutsch",
        href: `/admin/pages/${englishPage}`,
      });
    });

    it("refuses starting a page's translation from the list without rights to its language, and says why when the form is wrong", async () => {
      const german_ = await signIn(german);
      const english = await signIn(await englishOnly());
      const before = await footprint();
      const start = (session: Session, fields: Record<string, string>) =>
        post(pagesAction, "/admin/pages", session, { intent: "translate", ...fields });

      // Into English, by someone limited to Deutsch; into Deutsch, by someone limited to English.
      expect((await start(german_, { source: englishPage, translateInto: "en" })).status).toBe(403);
      const intoGerman = await start(english, { source: englishPage, translateInto: "de" });
      expect(intoGerman).toMatchObject({ status: 403, body: { message: expect.stringContaining("Deutsch") } });
      // A language the site is not in, and none.
      for (const translateInto of ["fr", "xx", ""])
        expect(await start(german_, { source: englishPage, translateInto })).toMatchObject({
          status: 400,
          body: { problem: "The site is not published in that language." },
        });
      // A source that does not exist, or is no English page.
      for (const source of [randomUUID(), "not-an-id", ""])
        expect(await start(german_, { source, translateInto: "de" })).toMatchObject({ status: 404, body: { problem: "There is no such page." } });
      expect(await start(german_, { source: germanPage, translateInto: "de" })).toMatchObject({
        status: 400,
        body: { problem: "Only an English page is translated." },
      });
      // Without the session's token.
      expect((await start({ ...german_, csrf: "forged" }, { source: englishPage, translateInto: "de" })).status).toBe(403);
      expect(await footprint()).toEqual(before);

      // Once made, a second start is refused.
      expect((await start(german_, { source: englishPage, translateInto: "de" })).status).toBe(302);
      const after = await footprint();
      expect(await start(german_, { source: englishPage, translateInto: "de" })).toMatchObject({
        status: 400,
        body: { problem: "This page already has a Deutsch translation." },
      });
      expect(await footprint()).toEqual(after);
    });

    it("lets an editor limited to Deutsch start an English post's German translation from the Posts list, and refuses the rest", async () => {
      const source = await addPost(db, { slug: "ai-act-checklist", title: "AI Act checklist", published_date: "2026-01-01T00:00:00.000Z" });
      const session = await signIn(german);
      const english = await signIn(await englishOnly());
      const list = await get(postsLoader, "/admin/posts", session);
      expect(rowOf(list.body, "posts", source.id)?.translations).toEqual([
        expect.objectContaining({ locale: "de", status: "missing", startable: true }),
      ]);
      const theirs = await get(postsLoader, "/admin/posts", english);
      expect(rowOf(theirs.body, "posts", source.id)?.translations).toEqual([expect.not.objectContaining({ startable: true })]);

      const before = await footprint();
      const start = (who: Session, fields: Record<string, string>) => post(postsAction, "/admin/posts", who, { intent: "translate", ...fields });
      expect((await start(session, { source: source.id, translateInto: "en" })).status).toBe(403);
      expect((await start(english, { source: source.id, translateInto: "de" })).status).toBe(403);
      expect((await start(session, { source: source.id, translateInto: "xx" })).status).toBe(400);
      expect(await start(session, { source: randomUUID(), translateInto: "de" })).toMatchObject({ status: 404, body: { problem: "There is no such post." } });
      expect((await post(postsAction, "/admin/posts", session, { source: source.id, translateInto: "de" })).status).toBe(400);
      expect(await footprint()).toEqual(before);

      expect((await start(session, { source: source.id, translateInto: "de" })).status).toBe(302);
      const made = await db
        .selectFrom("blog_posts")
        .select(["id", "locale", "slug", "published"])
        .where("translation_of", "=", source.id)
        .executeTakeFirstOrThrow();
      expect(made).toMatchObject({ locale: "de", slug: "ai-act-checklist-de" });
      expect(Boolean(made.published)).toBe(false);
      const { entries } = await listAuditEntries(db, { action: "post.translation-created" }, { limit: 5 });
      expect(entries).toMatchObject([{ actorId: german.id, targetId: made.id }]);

      const editor = await get(postLoader, `/admin/posts/${made.id}`, session, { postId: made.id });
      expect(editor.status).toBe(200);
      expect(editor.body).toMatchObject({
        translation: { sourceTitle: "AI Act checklist", sourceHref: null },
        source: { fields: expect.arrayContaining([{ label: expect.any(String), text: "Body of AI Act checklist" }]) },
      });
      expect((await get(postLoader, `/admin/posts/${source.id}`, session, { postId: source.id })).status).toBe(403);
      // In the list, the translation names its English post, linked only for who may open it.
      expect(rowOf((await get(postsLoader, "/admin/posts", session)).body, "posts", made.id)?.translationOf).toEqual({
        language: "Deutsch",
        href: null,
      });
      expect(rowOf((await get(postsLoader, "/admin/posts", english)).body, "posts", made.id)?.translationOf).toEqual({
        language: "Deutsch",
        href: `/admin/posts/${source.id}`,
      });
    });

    it("lets a legal person start a translation of a legal version into their language only", async () => {
      const sections = JSON.stringify({ sections: [{ title: "Retention", content: "We keep applications for six months." }] });
      const version = await addLegal(db, { document_type: "privacy-policy", last_updated: "2026-01-01", published: true, version: "2.0", content: sections });
      const germanLegal = await createUser(db, { email: "recht@example.com", roles: ["legal"] });
      await setLocales(db, germanLegal.id, ["de"]);
      const german_ = await signIn(germanLegal);
      const english = await signIn(await englishOnly());
      const startable = async (who: Session) => {
        const body = (await get(legalLoader, "/admin/legal", who)).body as {
          documents: { versions: { id: string; translations: { locale: string; startable: boolean }[] }[] }[];
        };
        const found = body.documents.flatMap((document) => document.versions).find((entry) => entry.id === version);
        return found?.translations.find((entry) => entry.locale === "de")?.startable;
      };
      expect(await startable(german_)).toBe(true);
      expect(await startable(english)).toBe(false);

      const before = await footprint();
      const translate = (who: Session, locale: string) => post(legalAction, "/admin/legal", who, { intent: "translate", from: version, locale });
      expect((await translate(english, "de")).status).toBe(403);
      expect((await translate(german_, "en")).status).toBe(403);
      expect((await translate(german_, "xx")).status).toBe(400);
      expect(await footprint()).toEqual(before);

      expect((await translate(german_, "de")).status).toBe(303);
      const made = await db
        .selectFrom("legal_documents")
        .select(["id", "locale"])
        .where("translation_of", "=", version)
        .executeTakeFirstOrThrow();
      expect(made.locale).toBe("de");
      const opened = await get(versionLoader, `/admin/legal/versions/${made.id}`, german_, { versionId: made.id });
      expect(opened).toMatchObject({
        status: 200,
        body: {
          source: { id: version, sections: [{ title: "Retention", content: "We keep applications for six months." }] },
          // The English version is named, not linked to an editor that answers them 403.
          editsSource: false,
        },
      });
      expect((await get(legalLoader, "/admin/legal", german_)).body).toMatchObject({ editsSource: false });
      expect((await get(legalLoader, "/admin/legal", english)).body).toMatchObject({ editsSource: true });
      expect((await get(versionLoader, `/admin/legal/versions/${made.id}`, await signIn(owner), { versionId: made.id })).body).toMatchObject({
        editsSource: true,
      });
    });

    it("lets an owner limit a person to languages on their page, audited; every language is no limit", async () => {
      const session = await signIn(owner);
      const page = await get(userLoader, `/admin/users/${anyLanguage.id}`, session, { userId: anyLanguage.id });
      expect(page.body).toMatchObject({
        languages: [
          { tag: "en", name: "English" },
          { tag: "de", name: "Deutsch" },
        ],
      });

      const params = { userId: anyLanguage.id };
      const limited = await post(userAction, `/admin/users/${anyLanguage.id}`, session, { intent: "locales", locales: ["de"] }, params);
      expect(limited).toMatchObject({ status: 200, body: { done: "Languages saved." } });
      expect((await findUserById(db, anyLanguage.id))!.locales).toEqual(["de"]);
      const people = (await get(usersLoader, "/admin/users", session)).body as { users: { email: string; languages: string[] }[] };
      expect(people.users.find((person) => person.email === anyLanguage.email)?.languages).toEqual(["Deutsch"]);
      expect(people.users.find((person) => person.email === owner.email)?.languages).toEqual([]);
      const { entries } = await listAuditEntries(db, { action: "user.locales-changed" }, { limit: 5 });
      expect(entries).toMatchObject([{ actorId: owner.id, targetId: anyLanguage.id, details: { from: "every", to: ["de"] } }]);

      await post(userAction, `/admin/users/${anyLanguage.id}`, session, { intent: "locales", locales: ["en", "de"] }, params);
      expect((await findUserById(db, anyLanguage.id))!.locales).toEqual([]);

      const none = await post(userAction, `/admin/users/${anyLanguage.id}`, session, { intent: "locales" }, params);
      expect(none.status).toBe(400);
      const ownerLimited = await post(userAction, `/admin/users/${owner.id}`, session, { intent: "locales", locales: ["de"] }, {
        userId: owner.id,
      });
      expect(ownerLimited.status).toBe(400);
      expect((await findUserById(db, owner.id))!.locales).toEqual([]);
    });

    /** What the invitation page does with a link: look it up, then let its person in, in one transaction. */
    async function acceptInvitation(link: string) {
      const found = await lookUpInvitation(db, link.slice(link.lastIndexOf("/") + 1));
      if (found.status !== "open") throw new Error(`the invitation is ${found.status}`);
      return db.transaction().execute((trx) => admitInvited(trx, found.invitation, { ip: "192.0.2.9" }));
    }

    const invitationRows = () => db.selectFrom("admin_invitations").select(["email", "roles", "locales"]).orderBy("email").execute();

    it("lets an owner invite a translator limited to languages: stored, listed, audited, and theirs once accepted", async () => {
      const session = await signIn(owner);
      const page = await get(usersLoader, "/admin/users", session);
      expect(page.body).toMatchObject({ languages: [{ tag: "en", name: "English" }, { tag: "de", name: "Deutsch" }] });

      const invited = await post(usersAction, "/admin/users", session, {
        intent: "invite",
        email: "uebersetzer@example.com",
        roles: ["editor", "legal"],
        locales: ["de"],
      });
      expect(invited).toMatchObject({ status: 200, body: { invited: { email: "uebersetzer@example.com" } } });
      expect(await invitationRows()).toEqual([{ email: "uebersetzer@example.com", roles: "editor,legal", locales: "de" }]);
      const listed = (await get(usersLoader, "/admin/users", session)).body as { invitations: { email: string; languages: string[] }[] };
      expect(listed.invitations).toMatchObject([{ email: "uebersetzer@example.com", languages: ["Deutsch"] }]);
      const created = await listAuditEntries(db, { action: "invitation.created" }, { limit: 5 });
      expect(created.entries).toMatchObject([{ actorId: owner.id, details: { email: "uebersetzer@example.com", locales: ["de"] } }]);

      const link = (invited.body as { invited: { link: string } }).invited.link;
      const person = await acceptInvitation(link);
      expect(person).toMatchObject({ roles: ["editor", "legal"], locales: ["de"] });
      const accepted = await listAuditEntries(db, { action: "invitation.accepted" }, { limit: 5 });
      expect(accepted.entries).toMatchObject([{ actorId: person.id, details: { locales: ["de"] } }]);
      // The limit holds at once: the English page is closed to them, the German one open.
      const theirs = await signIn(person);
      expect((await get(pageLoader, `/admin/pages/${englishPage}`, theirs, { pageId: englishPage })).status).toBe(403);
      expect((await get(pageLoader, `/admin/pages/${germanPage}`, theirs, { pageId: germanPage })).status).toBe(200);
    });

    it("invites without a limit when no language, or every one, is ticked; an invitation sets an existing account's languages", async () => {
      const session = await signIn(owner);
      for (const [email, locales] of [
        ["none@example.com", []],
        ["every@example.com", ["en", "de"]],
      ] as const)
        expect((await post(usersAction, "/admin/users", session, { intent: "invite", email, roles: ["editor"], locales: [...locales] })).status).toBe(
          200,
        );
      expect(await invitationRows()).toEqual([
        { email: "every@example.com", roles: "editor", locales: "" },
        { email: "none@example.com", roles: "editor", locales: "" },
      ]);
      const created = await listAuditEntries(db, { action: "invitation.created" }, { limit: 5 });
      expect(created.entries.map((entry) => entry.details)).toMatchObject([{ locales: "every" }, { locales: "every" }]);

      // The German editor, invited again (a lost device) without a limit, edits every language; an owner is never limited.
      const again = await post(usersAction, "/admin/users", session, { intent: "invite", email: german.email, roles: ["editor"] });
      expect((await acceptInvitation((again.body as { invited: { link: string } }).invited.link)).locales).toEqual([]);
      await setLocales(db, anyLanguage.id, ["de"]);
      const promoted = await post(usersAction, "/admin/users", session, { intent: "invite", email: anyLanguage.email, roles: ["owner"] });
      expect((await acceptInvitation((promoted.body as { invited: { link: string } }).invited.link)).locales).toEqual([]);
    });

    it("refuses an invitation naming a language the site does not have, or limiting an owner, beside the field, and stores nothing", async () => {
      const session = await signIn(owner);
      const before = await footprint();
      for (const locales of [["fr"], ["de", "xx"], ["de,en"], [""]]) {
        const refused = await post(usersAction, "/admin/users", session, {
          intent: "invite",
          email: "uebersetzer@example.com",
          roles: ["editor"],
          locales,
        });
        expect(refused, JSON.stringify(locales)).toMatchObject({
          status: 400,
          body: { fieldErrors: { locales: "Choose languages from the list." } },
        });
      }
      const owners = await post(usersAction, "/admin/users", session, {
        intent: "invite",
        email: "chefin@example.com",
        roles: ["owner"],
        locales: ["de"],
      });
      expect(owners).toMatchObject({ status: 400, body: { fieldErrors: { locales: expect.stringContaining("Owners edit every language") } } });
      // Not an owner: refused whatever it names.
      const editor = await signIn(anyLanguage);
      const notOwner = await post(usersAction, "/admin/users", editor, { intent: "invite", email: "x@example.com", roles: ["editor"], locales: ["de"] });
      expect(notOwner.status).toBe(403);
      expect(await invitationRows()).toEqual([]);
      expect(await footprint()).toEqual(before);
    });

    it("refuses the languages form without the session's token, and to anyone but an owner", async () => {
      const session = await signIn(owner);
      const forged = await post(userAction, `/admin/users/${german.id}`, { ...session, csrf: "forged" }, { intent: "locales", locales: ["en"] }, {
        userId: german.id,
      });
      expect(forged.status).toBe(403);
      const editor = await signIn(anyLanguage);
      const notOwner = await post(userAction, `/admin/users/${german.id}`, editor, { intent: "locales", locales: ["en"] }, {
        userId: german.id,
      });
      expect(notOwner.status).toBe(403);
      expect((await findUserById(db, german.id))!.locales).toEqual(["de"]);
    });
  });
}

describe("a content's language", () => {
  it("follows an address's prefix among the languages that have a catalog, English without one", () => {
    expect(documentLocaleOf("/")).toBe("en");
    expect(documentLocaleOf("/products/sentinel")).toBe("en");
    expect(documentLocaleOf("/de")).toBe("de");
    expect(documentLocaleOf("/de/produkte/sentinel")).toBe("de");
    expect(documentLocaleOf("/design")).toBe("en");
  });

  it("names a menu's language in its key; a key without one is English", () => {
    expect(localeOfMenuKey("header")).toBe("en");
    expect(localeOfMenuKey("de:header")).toBe("de");
    expect(localeOfMenuKey("xx:header")).toBe("en");
  });

  it("opens every language to owners and to people without a limit", () => {
    expect(canEditLocale({ roles: ["editor"], locales: [] }, "en")).toBe(true);
    expect(canEditLocale({ roles: ["editor"], locales: ["de"] }, "en")).toBe(false);
    expect(canEditLocale({ roles: ["editor"], locales: ["de"] }, "de")).toBe(true);
    expect(canEditLocale({ roles: ["owner"], locales: ["de"] }, "en")).toBe(true);
  });
});
