import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkCatalogs } from "~/features/i18n/catalog-check";
import { CATALOGS, catalogMessage } from "~/features/i18n/messages.server";
import { commonOutcomes, outcomeIn } from "~/features/leads/forms/outcome-messages.server";
import { leadFormServers } from "~/features/leads/registry.server";

// The message catalogs: the site's own are complete and valid; a catalog missing a key, carrying a
// malformed message or other arguments fails the check the build runs; the answers after a
// submission are put into words in the form page's language, English exactly as before.

const DIR = "app/features/i18n/catalogs";
const repoCatalogs = Object.fromEntries(
  readdirSync(DIR).map((file) => [
    file.replace(/\.json$/, ""),
    JSON.parse(readFileSync(path.join(DIR, file), "utf8")) as unknown,
  ]),
);

describe("message catalogs", () => {
  it("are complete and valid, and each is found by its file name", () => {
    expect(checkCatalogs(repoCatalogs, "en")).toEqual([]);
    expect([...CATALOGS.keys()].sort()).toEqual(Object.keys(repoCatalogs).sort());
  });

  it("name what is wrong: a key missing or extra, a malformed message, other arguments", () => {
    const en = { greeting: "Hello {name}", count: "{n, plural, one {# lead} other {# leads}}", plain: "Saved" };
    expect(
      checkCatalogs(
        {
          en,
          de: { greeting: "Hallo {nom}", count: "{n, plural, one {# Lead} other {# Leads}", extra: "Mehr" },
          fr: [],
        },
        "en",
      ),
    ).toEqual([
      "de: missing plain",
      "de: greeting names {nom}, the en catalog {name}",
      expect.stringMatching(/^de: count is not a valid ICU message \(/),
      "de: extra is not in the en catalog",
      "fr: not an object of texts",
    ]);
    expect(checkCatalogs({ de: {} }, "en")).toEqual(["en: the source catalog is missing or is not an object of texts"]);
  });

  it("fails the build's first step when a catalog is incomplete", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "quorvant-catalogs-"));
    try {
      // A copy of the site's catalogs with one key gone from the German one.
      cpSync(DIR, dir, { recursive: true });
      const german = JSON.parse(readFileSync(path.join(DIR, "de.json"), "utf8")) as Record<string, string>;
      delete german["outcome.invalid.title"];
      writeFileSync(path.join(dir, "de.json"), JSON.stringify(german));
      const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-catalogs.ts", dir], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("message catalog de: missing outcome.invalid.title");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("puts a submission's answer into the form page's language, English word for word as before", () => {
    expect(outcomeIn("en", leadFormServers["request-demo"].messages.success)).toEqual({
      kind: "success",
      title: "Demo Request Submitted",
      description: "We'll contact you soon to schedule your demo.",
    });
    expect(outcomeIn("en", commonOutcomes.tooLarge).description).toBe(
      "Your submission is too large. Please shorten it to under 64 KB and try again.",
    );
    expect(outcomeIn("de", commonOutcomes.invalid)).toEqual({
      kind: "failure",
      title: "Fehler",
      description: "Bitte korrigieren Sie die markierten Felder und versuchen Sie es erneut.",
    });
    // A regional tag reads its language's catalog; one the site has no catalog for, English.
    expect(catalogMessage("de-AT", "outcome.notAForm.title")).toBe("Fehler");
    expect(catalogMessage("fr", "outcome.notAForm.title")).toBe("Error");
  });
});
