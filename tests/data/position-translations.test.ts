import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import type { AppLoadContext } from "react-router";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { csrfToken, newCsrfSecret } from "~/features/auth/csrf.server";
import { createSignedInSession } from "~/features/auth/session.server";
import { createUser, setLocales, type AdminUser } from "~/features/auth/db/admin-users.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import type { PositionSnapshot } from "~/features/content/content-types";
import { findDocument } from "~/features/content/documents.server";
import { translatePosition, translationContext, translationStates } from "~/features/content/translations.server";
import { publishPosition, savePosition } from "~/features/careers/position-documents.server";
import { positionsAtomResponse, positionsJsonFeedResponse } from "~/features/careers/position-feeds.server";
import { findPublicPosition, forgetHeldPositions, listOpenPositionsIn } from "~/features/careers/positions.server";
import { action as positionAction, loader as positionLoader } from "~/features/careers/routes/admin.position";
import { action as positionsAction, loader as positionsLoader } from "~/features/careers/routes/admin.positions";
import { forgetHeldPages } from "~/features/pages/published-pages.server";
import { publishPage, savePage } from "~/features/pages/page-documents.server";
import { alternatesOf } from "~/features/i18n/alternates.server";
import { importContent } from "~/features/content/db/content-import.server";
import { stringifyYaml as stringify } from "~/features/content/content-yaml.server";
import { loader as publicPositionLoader } from "~/features/careers/routes/company.careers.position";
import { sitemapXml } from "~/features/site/sitemap.server";
import { parseSiteLocales, type SiteLocale } from "~/features/i18n/site-locales";
import { engines } from "./support/engines";
import { answerOf, withSiteLocales } from "./support/route-answers";
import { ok, samplePage } from "./support/sample-page";
import { samplePosition } from "./support/sample-position";

// Translations of open positions on both engines, as pages have them: a German draft made from an
// English position lives under the German careers page, names its source and revision, and is
// Missing, Current or Outdated as the source changes; a slug is one position's per language; the
// recruiters' list and editor start translations only into a language the person may edit (403,
// 400, 404, nothing written); each language has its own feeds of its own positions, and a
// position and its translation name each other (hreflang, the sitemap).

const ORIGIN = "http://localhost:3000";
const SITE = "https://www.quorvant.test";
const LOCALES = ["en", "de"];
const siteLocales = (text: string): SiteLocale[] => {
  const read = parseSiteLocales(text);
  if (!read.ok) throw new Error(read.problem);
  return read.locales;
};
const EN_DE = siteLocales("en,de");
const EN = siteLocales("en");

type Session = { cookie: string; csrf: string };

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`translations of open positions on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let recruiter: AdminUser;
    let german: AdminUser;
    let alice: { actor: { id: string; email: string }; ip: string };

    withSiteLocales("en,de");
    afterAll(async () => {
      await engine.cleanup();
    });
    beforeEach(async () => {
      forgetHeldPositions();
      forgetHeldPages();
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 4, SEED: "never" });
      db = getDb();
      recruiter = await createUser(db, { email: "recruiting@example.com", roles: ["recruiter"] });
      german = await createUser(db, { email: "personal@example.com", roles: ["recruiter"] });
      await setLocales(db, german.id, ["de"]);
      alice = { actor: { id: recruiter.id, email: recruiter.email }, ip: "192.0.2.1" };
    });
    afterEach(async () => {
      await closeDatabase();
    });

    /** An English position, saved and published (revision 1); its id. */
    async function englishPosition(overrides: Partial<PositionSnapshot> = {}): Promise<string> {
      const { id } = ok(await savePosition(db, alice, { baseRevision: 0, position: samplePosition(overrides) }));
      ok(await publishPosition(db, alice, { id, baseRevision: 1 }));
      return id;
    }

    const translate = (sourceId: string, locale = "de") => translatePosition(db, alice, { sourceId, locale, locales: LOCALES });

    async function translated(sourceId: string): Promise<string> {
      const made = await translate(sourceId);
      if (!made.ok) throw new Error(JSON.stringify(made));
      return made.id;
    }

    /** Every row a translation could leave behind, and the audit log. */
    async function footprint() {
      const count = async (table: "content_documents" | "content_revisions" | "audit_log") =>
        Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow()).count);
      return { documents: await count("content_documents"), revisions: await count("content_revisions"), audit: await count("audit_log") };
    }

    it("translates an English position into a German draft under the German careers page, and follows its status", async () => {
      const source = await englishPosition();
      const status = async () => (await translationStates(db, "position", [source], LOCALES)).get(source)![0]!;
      expect(await status()).toEqual({ locale: "de", language: "Deutsch", status: "missing" });

      const id = await translated(source);
      const translation = (await findDocument<PositionSnapshot>(db, id))!;
      expect(translation).toMatchObject({
        type: "position",
        path: "/de/unternehmen/karriere/security-researcher",
        locale: "de",
        translationOf: source,
        sourceRevision: 1,
        storedState: "draft",
      });
      expect(translation.draft).toEqual(samplePosition());
      const { entries } = await listAuditEntries(db, { action: "position.translation-created" }, { limit: 5 });
      expect(entries).toMatchObject([{ targetId: id, details: { locale: "de", translationOf: source, path: "/de/unternehmen/karriere/security-researcher" } }]);
      expect(await status()).toMatchObject({ status: "current", translation: { id, state: "draft", editorPath: `/admin/positions/${id}` } });
      // One translation per language; none from a translation, none into a language the site is not in.
      const before = await footprint();
      expect(await translate(source)).toEqual({ ok: false, problem: "This position already has a Deutsch translation." });
      expect(await translate(id)).toEqual({ ok: false, problem: "Only an English position is translated." });
      expect(await translate(source, "fr")).toEqual({ ok: false, problem: "The site is not published in that language." });
      expect(await translate(randomUUID())).toEqual({ ok: false, problem: "There is no such position." });
      expect(await footprint()).toEqual(before);

      // Translated, with a German slug, and published: visitors find it on the German careers page.
      const german = samplePosition({ slug: "sicherheitsforscherin", title: "Sicherheitsforscher:in", team: "Forschung" });
      ok(await savePosition(db, alice, { id, baseRevision: 1, position: german }));
      ok(await publishPosition(db, alice, { id, baseRevision: 2 }));
      expect((await findDocument(db, id))!.path).toBe("/de/unternehmen/karriere/sicherheitsforscherin");
      forgetHeldPositions();
      expect((await listOpenPositionsIn(db, "de")).map((position) => position.path)).toEqual(["/de/unternehmen/karriere/sicherheitsforscherin"]);
      expect((await listOpenPositionsIn(db, "en")).map((position) => position.path)).toEqual(["/company/careers/security-researcher"]);
      expect(await findPublicPosition(db, "sicherheitsforscherin", undefined, "/de/unternehmen/karriere")).toMatchObject({ open: true });
      expect(await findPublicPosition(db, "sicherheitsforscherin")).toBeUndefined();

      // The English position changes: the translation is outdated, with what changed.
      ok(await savePosition(db, alice, { id: source, baseRevision: 1, position: samplePosition({ team: "Security Research" }) }));
      expect(await status()).toMatchObject({ status: "outdated", translation: { state: "published", sourceRevision: 1 } });
      const context = (await translationContext(db, "position", (await findDocument(db, id))!))!;
      expect(context).toMatchObject({ outdated: true, sourceRevision: 1, source: { id: source, revision: 2 } });
      expect(context.changes.map((change) => change.field)).toEqual(["team"]);

      // A save not marked up to date leaves it outdated; one that is, brings it up to date (audited).
      ok(await savePosition(db, alice, { id, baseRevision: 2, position: { ...german, summary: "Neue Angriffe finden." } }));
      expect(await status()).toMatchObject({ status: "outdated" });
      ok(await savePosition(db, alice, { id, baseRevision: 3, position: { ...german, team: "Sicherheitsforschung" }, translation: { sourceRevision: 2 } }));
      expect(await status()).toMatchObject({ status: "current", translation: { sourceRevision: 2 } });
      const updated = await listAuditEntries(db, { action: "position.translation-updated" }, { limit: 5 });
      expect(updated.entries).toMatchObject([{ targetId: id, details: { sourceRevision: 2, previousSourceRevision: 1 } }]);
    });

    it("gives a slug to one position per language: the German one may keep the English slug, not another German position's or page's", async () => {
      const source = await englishPosition();
      const other = await englishPosition({ slug: "backend-engineer", title: "Backend Engineer" });
      const first = await translated(source);
      // Both keep the English slug: the second translation's address is taken by the first's.
      await db.updateTable("content_documents").set({ draft: JSON.stringify(samplePosition({ slug: "security-researcher", title: "Backend" })) }).where("id", "=", other).execute();
      const before = await footprint();
      const refused = await translatePosition(db, alice, { sourceId: other, locale: "de", locales: LOCALES });
      expect(refused).toEqual({
        ok: false,
        errors: { slug: "Slug /de/unternehmen/karriere/security-researcher is already used by another position." },
      });
      expect(await footprint()).toEqual(before);

      // A German page at the address a German slug would take: refused beside the slug, nothing saved.
      const { id: page } = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage({ path: "/de/unternehmen/karriere/werkstudium" }) }));
      ok(await publishPage(db, alice, { id: page, baseRevision: 1 }));
      const taken = await savePosition(db, alice, { id: first, baseRevision: 1, position: samplePosition({ slug: "werkstudium" }) });
      expect(taken).toEqual({ ok: false, errors: { slug: "Slug /de/unternehmen/karriere/werkstudium is already used by another page." } });
      expect((await findDocument(db, first))!).toMatchObject({ revision: 1, path: "/de/unternehmen/karriere/security-researcher" });
    });

    // The recruiters' routes, with real sessions -------------------------------------------------

    async function signIn(user: AdminUser): Promise<Session> {
      const secret = newCsrfSecret();
      const setCookie = await createSignedInSession({ userId: user.id, authMethod: "passkey", csrfSecret: secret, ip: "192.0.2.1", userAgent: "Vitest" });
      return { cookie: setCookie.split(";")[0]!, csrf: csrfToken(secret) };
    }
    const context = () => ({ clientIp: "192.0.2.1", requestId: randomUUID() }) as AppLoadContext;
    const get = (route: (args: never) => Promise<unknown>, path: string, session: Session, params: Record<string, string> = {}) =>
      answerOf(() =>
        route({ request: new Request(`${ORIGIN}${path}`, { headers: { Cookie: session.cookie } }), context: context(), params } as never),
      );
    const post = (
      route: (args: never) => Promise<unknown>,
      path: string,
      session: Session,
      fields: Record<string, string>,
      params: Record<string, string> = {},
    ) =>
      answerOf(() =>
        route({
          request: new Request(`${ORIGIN}${path}`, {
            method: "POST",
            headers: { Cookie: session.cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
            body: new URLSearchParams({ csrf: session.csrf, ...fields }),
          }),
          context: context(),
          params,
        } as never),
      );

    type ListRow = { id: string; translations: { locale: string; status: string; startable?: boolean }[]; translationOf: unknown };
    const rowOf = (body: unknown, id: string) => (body as { positions: ListRow[] }).positions.find((row) => row.id === id);

    it("lets a recruiter limited to Deutsch see the list, start a Missing translation from it and edit it beside its source, never the English position", async () => {
      const source = await englishPosition();
      const session = await signIn(german);
      const list = await get(positionsLoader, "/admin/positions", session);
      expect(list.status).toBe(200);
      expect(rowOf(list.body, source)).toMatchObject({
        translationOf: null,
        translations: [{ locale: "de", status: "missing", startable: true }],
      });

      const started = await post(positionsAction, "/admin/positions", session, { intent: "translate", source, translateInto: "de" });
      const made = await db.selectFrom("content_documents").select(["id", "path", "locale"]).where("translation_of", "=", source).executeTakeFirstOrThrow();
      expect(made).toMatchObject({ locale: "de", path: "/de/unternehmen/karriere/security-researcher" });
      expect(started).toMatchObject({ status: 302, location: `/admin/positions/${made.id}?translated=1` });
      const { entries } = await listAuditEntries(db, { action: "position.translation-created" }, { limit: 5 });
      expect(entries).toMatchObject([{ actorId: german.id, targetId: made.id }]);

      // The list now names the German position as the translation (of an English position they may not open: not linked), and the English one as current.
      const after = await get(positionsLoader, "/admin/positions", session);
      expect(rowOf(after.body, made.id)).toMatchObject({ translationOf: { language: "Deutsch", href: null } });
      expect(rowOf(after.body, source)!.translations).toEqual([expect.objectContaining({ status: "current", state: "Draft" })]);

      // Its editor: the English source beside the fields, not linked; its address under the German careers page.
      const editor = await get(positionLoader, `/admin/positions/${made.id}?translated=1`, session, { positionId: made.id });
      expect(editor.status).toBe(200);
      expect(editor.body).toMatchObject({
        translated: true,
        careersPath: "/de/unternehmen/karriere",
        translation: { language: "Deutsch", sourceTitle: "Security Researcher, AI Threats", sourceHref: null, outdated: false },
        source: { Position: expect.arrayContaining([{ label: "Title", text: "Security Researcher, AI Threats" }]) },
      });

      // The English position's editor and its translate button stay closed to them, nothing written.
      const before = await footprint();
      expect((await get(positionLoader, `/admin/positions/${source}`, session, { positionId: source })).status).toBe(403);
      expect((await post(positionAction, `/admin/positions/${source}`, session, { translateInto: "de" }, { positionId: source })).status).toBe(403);
      expect(await footprint()).toEqual(before);
    });

    it("refuses a start into a language the person may not edit (403), one the site does not have (400) and a missing source (404), writing nothing", async () => {
      const source = await englishPosition();
      const { id: page } = ok(await savePage(db, alice, { baseRevision: 0, page: samplePage() }));
      const english = await createUser(db, { email: "recruiting-en@example.com", roles: ["recruiter"] });
      await setLocales(db, english.id, ["en"]);
      const [germanSession, englishSession] = [await signIn(german), await signIn(english)];
      const start = (session: Session, fields: Record<string, string>) =>
        post(positionsAction, "/admin/positions", session, { intent: "translate", ...fields });
      const before = await footprint();

      // Someone limited to English sees Missing without the button, and is refused the start.
      expect(rowOf((await get(positionsLoader, "/admin/positions", englishSession)).body, source)!.translations).toEqual([
        expect.not.objectContaining({ startable: true }),
      ]);
      expect(await start(englishSession, { source, translateInto: "de" })).toMatchObject({
        status: 403,
        body: { message: expect.stringContaining("Deutsch") },
      });
      expect((await start(germanSession, { source, translateInto: "en" })).status).toBe(403);
      for (const translateInto of ["fr", "xx", ""])
        expect(await start(germanSession, { source, translateInto })).toMatchObject({
          status: 400,
          body: { problem: "The site is not published in that language." },
        });
      // No such position: an unknown id, no id, and a page's.
      for (const missing of [randomUUID(), "not-an-id", page])
        expect(await start(germanSession, { source: missing, translateInto: "de" })).toMatchObject({
          status: 404,
          body: { problem: "There is no such position." },
        });
      // Without the session's token.
      expect((await start({ ...germanSession, csrf: "forged" }, { source, translateInto: "de" })).status).toBe(403);
      // Creating a position is English: still refused to them.
      expect((await post(positionsAction, "/admin/positions", germanSession, { title: "Neu", team: "Vertrieb", location: "Berlin" })).status).toBe(403);
      expect(await footprint()).toEqual(before);
    });

    it("makes the translation from the English editor's button, and records a translation brought up to date when the box is ticked", async () => {
      const source = await englishPosition();
      const session = await signIn(recruiter);
      const editor = await get(positionLoader, `/admin/positions/${source}`, session, { positionId: source });
      expect(editor.body).toMatchObject({
        careersPath: "/company/careers",
        translation: null,
        translations: [{ locale: "de", status: "missing", startable: true }],
      });
      const made = await post(positionAction, `/admin/positions/${source}`, session, { translateInto: "de" }, { positionId: source });
      const id = (await db.selectFrom("content_documents").select("id").where("translation_of", "=", source).executeTakeFirstOrThrow()).id;
      expect(made).toMatchObject({ status: 302, location: `/admin/positions/${id}?translated=1` });

      ok(await savePosition(db, alice, { id: source, baseRevision: 1, position: samplePosition({ title: "Security Researcher" }) }));
      const outdated = await get(positionLoader, `/admin/positions/${id}`, session, { positionId: id });
      expect(outdated.body).toMatchObject({ translation: { outdated: true, from: 1, sourceRevision: 2, sourceHref: `/admin/positions/${source}` } });
      const form = {
        intent: "save",
        revision: "1",
        title: "Sicherheitsforscher:in",
        slug: "sicherheitsforscherin",
        team: "Forschung",
        locations: "Remote",
        workplace: "remote",
        remoteRegions: "Europäische Union",
        employmentType: "full-time",
        payMin: "70000",
        payMax: "90000",
        payCurrency: "EUR",
        payPeriod: "year",
        summary: "Neue Angriffe finden.",
        description: "Sie finden neue Angriffe.",
        timeZone: "UTC",
        sourceRevision: "2",
      };
      expect(await post(positionAction, `/admin/positions/${id}`, session, form, { positionId: id })).toMatchObject({
        status: 200,
        body: { done: "Saved as revision 2." },
      });
      expect(await findDocument(db, id)).toMatchObject({ sourceRevision: 2, path: "/de/unternehmen/karriere/sicherheitsforscherin" });
      expect((await listAuditEntries(db, { action: "position.translation-updated" }, { limit: 5 })).entries).toHaveLength(1);
    });

    // What visitors and readers get -------------------------------------------------------------

    async function germanTranslation(source: string, overrides: Partial<PositionSnapshot>): Promise<string> {
      const id = await translated(source);
      ok(await savePosition(db, alice, { id, baseRevision: 1, position: samplePosition(overrides) }));
      ok(await publishPosition(db, alice, { id, baseRevision: 2 }));
      forgetHeldPositions();
      return id;
    }

    it("gives each language feeds of its own positions in its words; German ones are a 404 on a site in English alone", async () => {
      const source = await englishPosition();
      await germanTranslation(source, {
        slug: "sicherheitsforscherin",
        title: "Sicherheitsforscher:in",
        team: "Forschung",
        remoteRegions: ["Europäische Union"],
        responsibilities: ["Neue Angriffe erforschen"],
      });
      const feeds = { db, siteUrl: SITE, locales: EN_DE };

      const englishAtom = await (await positionsAtomResponse(new Request(`${SITE}/company/careers/atom.xml`), feeds)).text();
      expect(englishAtom).toContain('<feed xml:lang="en" xmlns="http://www.w3.org/2005/Atom">');
      expect(englishAtom).toContain("<title type=\"html\"><![CDATA[Security Researcher, AI Threats]]></title>");
      expect(englishAtom).not.toContain("Sicherheitsforscher");

      const germanAtom = await (await positionsAtomResponse(new Request(`${SITE}/de/unternehmen/karriere/atom.xml`), feeds)).text();
      expect(germanAtom).toContain('<feed xml:lang="de" xmlns="http://www.w3.org/2005/Atom">');
      expect(germanAtom).toContain("<title>Offene Stellen bei Quorvant</title>");
      expect(germanAtom).toContain(`<link rel="self" href="${SITE}/de/unternehmen/karriere/atom.xml"/>`);
      expect(germanAtom).toContain(`${SITE}/de/unternehmen/karriere/sicherheitsforscherin`);
      expect(germanAtom).toContain("Forschung · Remote (Europäische Union) · 70.000");
      expect(germanAtom).toContain("<h3>Ihre Aufgaben</h3>");
      expect(germanAtom).not.toContain("Security Researcher, AI Threats");

      const germanJson = (await (await positionsJsonFeedResponse(new Request(`${SITE}/de/unternehmen/karriere/feed.json`), feeds)).json()) as {
        language: string;
        title: string;
        feed_url: string;
        home_page_url: string;
        items: { url: string; title: string }[];
      };
      expect(germanJson).toMatchObject({
        language: "de",
        title: "Offene Stellen bei Quorvant",
        feed_url: `${SITE}/de/unternehmen/karriere/feed.json`,
        home_page_url: `${SITE}/de/unternehmen/karriere`,
      });
      expect(germanJson.items.map((item) => [item.title, item.url])).toEqual([
        ["Sicherheitsforscher:in", `${SITE}/de/unternehmen/karriere/sicherheitsforscherin`],
      ]);
      const englishJson = (await (await positionsJsonFeedResponse(new Request(`${SITE}/company/careers/feed.json`), feeds)).json()) as {
        language: string;
        items: { title: string }[];
      };
      expect(englishJson).toMatchObject({ language: "en", items: [{ title: "Security Researcher, AI Threats" }] });
      expect(englishJson.items).toHaveLength(1);

      // The German position's page advertises the German feeds; the English one the English feeds.
      const advertised = async (pagePath: string, slug: string) => {
        const answer = (await publicPositionLoader({
          request: new Request(`${ORIGIN}${pagePath}`),
          params: { slug },
          context: { requestId: "feeds", documentRequest: false } as unknown as AppLoadContext,
        } as never)) as unknown as { data: { meta: { alternateFeeds: { title: string; path: string }[] } } };
        return answer.data.meta.alternateFeeds;
      };
      expect(await advertised("/de/unternehmen/karriere/sicherheitsforscherin", "sicherheitsforscherin")).toEqual([
        { format: "atom", title: "Offene Stellen bei Quorvant", path: "/de/unternehmen/karriere/atom.xml" },
        { format: "json", title: "Offene Stellen bei Quorvant", path: "/de/unternehmen/karriere/feed.json" },
      ]);
      expect((await advertised("/company/careers/security-researcher", "security-researcher")).map((feed) => feed.path)).toEqual([
        "/company/careers/atom.xml",
        "/company/careers/feed.json",
      ]);

      // On a site in English alone, the German careers page's feeds are not found.
      for (const run of [positionsAtomResponse, positionsJsonFeedResponse])
        await expect(run(new Request(`${SITE}/de/unternehmen/karriere/atom.xml`), { ...feeds, locales: EN })).rejects.toMatchObject({
          init: { status: 404 },
        });
    });

    it("imports a German position from positions/de naming its English source by slug, and refuses one naming none, writing nothing", async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "position-translations-"));
      try {
        mkdirSync(path.join(dir, "positions", "de"), { recursive: true });
        // An import needs a post or legal document: one English legal document of the sample.
        mkdirSync(path.join(dir, "legal"));
        copyFileSync(path.resolve("content/legal/terms-of-use.md"), path.join(dir, "legal", "terms-of-use.md"));
        writeFileSync(path.join(dir, "positions", "security-researcher.yaml"), stringify(samplePosition()));
        const germanFile = path.join(dir, "positions", "de", "sicherheitsforscherin.yaml");
        const { slug, ...germanFields } = samplePosition({ slug: "sicherheitsforscherin", title: "Sicherheitsforscher:in" });
        writeFileSync(germanFile, stringify({ slug, translation_of: "no-such-position", ...germanFields }));
        const refused = await importContent(db, dir);
        expect(refused).toMatchObject({ written: false });
        expect(refused.problems).toEqual([
          {
            path: "positions/de/sicherheitsforscherin.yaml",
            field: "translation_of",
            message: 'names "no-such-position", which is the slug of no en position',
          },
        ]);
        expect(await footprint()).toEqual({ documents: 0, revisions: 0, audit: 0 });
        expect(Number((await db.selectFrom("legal_documents").select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow()).count)).toBe(0);

        // In the English folder, translation_of is refused too: a translation lives in its language's folder.
        writeFileSync(path.join(dir, "positions", "other.yaml"), stringify({ translation_of: "security-researcher", ...samplePosition({ slug: "other" }) }));
        expect((await importContent(db, dir)).problems.map((problem) => `${problem.path} ${problem.field}`)).toEqual(
          expect.arrayContaining(["positions/other.yaml translation_of"]),
        );
        rmSync(path.join(dir, "positions", "other.yaml"));

        writeFileSync(germanFile, stringify({ slug, translation_of: "security-researcher", ...germanFields }));
        const imported = await importContent(db, dir);
        expect(imported.problems).toEqual([]);
        const source = (await db.selectFrom("content_documents").select(["id", "revision"]).where("path", "=", "/company/careers/security-researcher").executeTakeFirstOrThrow());
        const german = await db
          .selectFrom("content_documents")
          .select(["locale", "translation_of", "source_revision", "state"])
          .where("path", "=", "/de/unternehmen/karriere/sicherheitsforscherin")
          .executeTakeFirstOrThrow();
        expect(german).toMatchObject({ locale: "de", translation_of: source.id, state: "published" });
        expect(Number(german.source_revision)).toBe(Number(source.revision));
        // Imported again, nothing changes.
        expect((await importContent(db, dir)).changes.filter((change) => change.table === "content_documents").map((change) => change.action)).toEqual([
          "unchanged",
          "unchanged",
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("names a position and its translation as each other's alternates, and the sitemap lists both with them", async () => {
      const source = await englishPosition();
      await germanTranslation(source, { slug: "sicherheitsforscherin", title: "Sicherheitsforscher:in" });
      await englishPosition({ slug: "backend-engineer", title: "Backend Engineer" });
      forgetHeldPositions();
      const pair = [
        { tag: "en", path: "/company/careers/security-researcher" },
        { tag: "de", path: "/de/unternehmen/karriere/sicherheitsforscherin" },
      ];
      expect(await alternatesOf(db, "/company/careers/security-researcher", EN_DE)).toEqual(pair);
      expect(await alternatesOf(db, "/de/unternehmen/karriere/sicherheitsforscherin", EN_DE)).toEqual(pair);
      expect(await alternatesOf(db, "/company/careers/backend-engineer", EN_DE)).toEqual([]);

      const sitemap = await sitemapXml(db, SITE, EN_DE);
      const urlOf = (path: string) => sitemap.split("\n").find((line) => line.startsWith(`  <url><loc>${SITE}${path}</loc>`));
      const links =
        `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/company/careers/security-researcher"/>` +
        `<xhtml:link rel="alternate" hreflang="de" href="${SITE}/de/unternehmen/karriere/sicherheitsforscherin"/>` +
        `<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/company/careers/security-researcher"/>`;
      expect(urlOf("/company/careers/security-researcher")).toContain(links);
      expect(urlOf("/de/unternehmen/karriere/sicherheitsforscherin")).toContain(links);
      expect(urlOf("/company/careers/backend-engineer")).not.toContain("xhtml:link");
      // In English alone, no German position.
      expect(await sitemapXml(db, SITE, EN)).not.toContain("/de/");
    });
  });
}
