import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import { loadOpenPositionsBoard } from "~/features/careers/position-page.server";
import { forgetHeldPositions } from "~/features/careers/positions.server";
import { loader as positionLoader } from "~/features/careers/routes/company.careers.position";
import { engines } from "./support/engines";
import { samplePosition } from "./support/sample-position";

// A position's page and the careers board in each language (SITE_LOCALES=en,de): the loaders send
// a German page its words, labels and counts in German, an English page in the English it always had.

const context = { requestId: "careers-languages", documentRequest: false } as unknown as AppLoadContext;

type Loaded = { data: Record<string, unknown> };

async function positionPage(path: string, slug: string) {
  const answer = (await positionLoader({
    request: new Request(`http://localhost${path}`),
    params: { slug },
    context,
  } as never)) as unknown as Loaded;
  return answer.data as {
    state: string;
    texts: Record<string, string>;
    position: Record<string, unknown>;
    meta: { title: string; description: string; jsonLd: { description: string }[] };
  };
}

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`the careers pages by language on ${engine.name}`, () => {
    beforeEach(async () => {
      forgetHeldPositions();
      await initDatabase({ DATABASE_URL: await engine.create(), DATABASE_POOL_SIZE: 2, SEED: "never" });
      const db = getDb();
      const add = async (path: string, locale: string, fields: ReturnType<typeof samplePosition>, closed = false) => {
        const snapshot = JSON.stringify(closed ? { ...fields, closesAt: "2025-01-01T00:00:00.000Z" } : fields);
        await db
          .insertInto("content_documents")
          .values({
            id: randomUUID(),
            type: "position",
            path,
            draft: snapshot,
            published: snapshot,
            published_path: path,
            published_at: "2025-01-01T00:00:00.000Z",
            first_published_at: "2025-01-01T00:00:00.000Z",
            state: "published",
            revision: 1,
            locale,
          })
          .execute();
      };
      await add("/company/careers/security-researcher", "en", samplePosition());
      await add(
        "/de/unternehmen/karriere/sicherheitsforscherin",
        "de",
        samplePosition({
          slug: "sicherheitsforscherin",
          title: "Sicherheitsforscher:in",
          team: "Forschung",
          remoteRegions: ["Europäische Union"],
          responsibilities: ["Neue Angriffe erforschen"],
          requirements: ["Drei Jahre Sicherheitsforschung"],
        }),
      );
      await add(
        "/de/unternehmen/karriere/vertrieb",
        "de",
        samplePosition({ slug: "vertrieb", title: "Vertrieb", team: "Vertrieb", workplace: "hybrid", locations: ["Berlin", "Wien"] }),
        true,
      );
    });
    afterEach(async () => {
      await closeDatabase();
    });
    afterAll(async () => {
      await engine.cleanup();
    });

    it("sends a German position's page its words, labels and structured data in German", async () => {
      const page = await positionPage("/de/unternehmen/karriere/sicherheitsforscherin", "sicherheitsforscherin");
      expect(page.state).toBe("open");
      expect(page.texts).toMatchObject({
        "shell.position.allPositions": "Alle offenen Stellen",
        "shell.careers.location": "Standort",
        "shell.careers.workplace": "Arbeitsmodell",
        "shell.position.employmentType": "Anstellungsart",
        "shell.position.pay": "Vergütung",
        "shell.position.apply": "Auf diese Stelle bewerben",
        "shell.position.responsibilities": "Ihre Aufgaben",
        "shell.position.requirements": "Was Sie mitbringen",
      });
      expect(page.position).toMatchObject({ where: "Remote (Europäische Union)", workplace: "Remote", employmentType: "Vollzeit" });
      expect(page.position.pay).toMatch(/^70\.000\s€–90\.000\s€ pro Jahr$/);
      expect(page.meta.jsonLd[0]!.description).toContain("<h3>Ihre Aufgaben</h3>");
      expect(page.meta.jsonLd[0]!.description).toContain("<h3>Was Sie mitbringen</h3>");

      const closed = await positionPage("/de/unternehmen/karriere/vertrieb", "vertrieb");
      expect(closed.state).toBe("closed");
      expect(closed.meta).toMatchObject({
        title: "Vertrieb (nicht mehr ausgeschrieben)",
        description: "Die Stelle Vertrieb ist nicht mehr ausgeschrieben. Hier finden Sie die offenen Stellen.",
      });
      expect(closed).toMatchObject({ open: [{ title: "Sicherheitsforscher:in", where: "Remote (Europäische Union)" }] });
      expect(closed.texts["shell.position.closed"]).toBe("Diese Stelle ist nicht mehr ausgeschrieben.");
    });

    it("sends an English position's page the English it always had", async () => {
      const page = await positionPage("/company/careers/security-researcher", "security-researcher");
      expect(page.texts).toMatchObject({
        "shell.position.allPositions": "All open positions",
        "shell.careers.team": "Team",
        "shell.careers.location": "Location",
        "shell.careers.workplace": "Workplace",
        "shell.position.employmentType": "Employment type",
        "shell.position.pay": "Pay",
        "shell.position.apply": "Apply for this position",
        "shell.position.responsibilities": "What you will do",
        "shell.position.requirements": "What you bring",
      });
      expect(page.position).toMatchObject({
        where: "Remote (European Union or United States)",
        workplace: "Remote",
        employmentType: "Full-time",
        pay: "€70,000–€90,000 a year",
      });
      expect(page.meta.jsonLd[0]!.description).toContain("<h3>What you will do</h3>");
    });

    it("counts and labels the German board in German and the English one in English", async () => {
      const germanBoard = await loadOpenPositionsBoard(
        context,
        new URL("http://localhost/de/unternehmen/karriere?workplace=remote"),
        "de",
      );
      expect(germanBoard).toMatchObject({ total: 1, shown: 1, counts: { all: "1 offene Stelle." } });
      expect(germanBoard!.counts.matching).toEqual([
        "0 offene Stellen passen zu diesen Filtern.",
        "1 offene Stelle passt zu diesen Filtern.",
      ]);
      expect(germanBoard!.listHtml).toContain("Remote (Europäische Union) · Vollzeit · 70.000");
      expect(germanBoard!.listHtml).toContain("pro Jahr");

      const englishBoard = await loadOpenPositionsBoard(context, new URL("http://localhost/company/careers"), "en");
      expect(englishBoard).toMatchObject({ total: 1, counts: { all: "1 open position." } });
      expect(englishBoard!.counts.matching).toEqual(["0 open positions match these filters.", "1 open position match these filters."]);
      expect(englishBoard!.listHtml).toContain("Remote (European Union or United States) · Full-time · €70,000–€90,000 a year");
    });
  });
}
