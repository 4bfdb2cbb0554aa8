import { describe, expect, it } from "vitest";
import { splitLegalSections } from "~/features/content/content-files.server";
import { checkDraft } from "~/features/legal/draft-check.server";
import {
  applySectionEdit,
  documentText,
  LEGAL_LIMITS,
  parseSectionEdit,
  readDraftForm,
  suggestVersion,
  type DraftFields,
} from "~/features/legal/drafts";

// The legal editor's pure parts: reading its form (hostile ones too), rearranging sections,
// suggesting the next number, and a checked draft always surviving the content file format.

const fields: DraftFields = {
  title: "Privacy Policy",
  version: "2.2",
  effectiveDate: "2026-03-10",
  changeSummary: "Shorter retention.",
  sections: [
    { title: "A", content: "One" },
    { title: "B", content: "Two" },
    { title: "C", content: "Three" },
  ],
};

describe("legal drafts", () => {
  it("suggests the next number after the newest, skipping taken ones", () => {
    expect(suggestVersion("2.1", new Set(["2.1"]))).toBe("2.2");
    expect(suggestVersion("2.1", new Set(["2.1", "2.2", "2.3"]))).toBe("2.4");
    expect(suggestVersion("3", new Set())).toBe("4");
    expect(suggestVersion("1.9", new Set())).toBe("1.10");
    // A number the editor would not accept (from another tool) starts a fresh count.
    expect(suggestVersion("0.9 beta/1", new Set())).toBe("1.0");
    expect(suggestVersion(undefined, new Set(["1.0"]))).toBe("1.1");
  });

  it("reads only the known section buttons, and moves, adds and removes within bounds", () => {
    expect(parseSectionEdit("up:2")).toEqual({ kind: "up", index: 2 });
    expect(parseSectionEdit("add-section")).toEqual({ kind: "add" });
    for (const hostile of ["up:-1", "up:1e3", "down:", "remove:1;drop", "save", "up:9999"]) {
      expect(parseSectionEdit(hostile)).toBeUndefined();
    }
    const titles = (edit: Parameters<typeof applySectionEdit>[1]) =>
      applySectionEdit(fields.sections, edit).sections.map((s) => s.title);
    expect(titles({ kind: "up", index: 2 })).toEqual(["A", "C", "B"]);
    expect(titles({ kind: "down", index: 0 })).toEqual(["B", "A", "C"]);
    expect(titles({ kind: "up", index: 0 })).toEqual(["A", "B", "C"]);
    expect(titles({ kind: "down", index: 2 })).toEqual(["A", "B", "C"]);
    expect(titles({ kind: "remove", index: 7 })).toEqual(["A", "B", "C"]);
    expect(applySectionEdit(fields.sections, { kind: "remove", index: 1 })).toEqual({
      sections: [fields.sections[0], fields.sections[2]],
      focus: 1,
    });
    expect(applySectionEdit(fields.sections, { kind: "add" })).toMatchObject({ focus: 3 });
    const full = Array.from({ length: LEGAL_LIMITS.sections }, () => ({ title: "T", content: "C" }));
    expect(applySectionEdit(full, { kind: "add" }).sections).toHaveLength(LEGAL_LIMITS.sections);
  });

  it("reads a form with thousands of sections as one too many, which the check refuses", () => {
    const form = new URLSearchParams({ title: "T", version: "1", effective_date: "2026-01-01", change_summary: "S" });
    for (let index = 0; index < 5000; index += 1) {
      form.append("section_title", `T${index}`);
      form.append("section_text", "x");
    }
    const read = readDraftForm(form);
    expect(read.sections).toHaveLength(LEGAL_LIMITS.sections + 1);
    expect(checkDraft(read)).toEqual({
      ok: false,
      errors: { sections: `A document has at most ${LEGAL_LIMITS.sections} sections.` },
    });
  });

  it("normalises line breaks, trims, and refuses control characters", () => {
    const checked = checkDraft({
      ...fields,
      title: "  Privacy Policy ",
      sections: [{ title: " A ", content: "\r\nOne\r\n\r\nTwo\r\n" }],
    });
    expect(checked).toMatchObject({
      ok: true,
      draft: { title: "Privacy Policy", sections: [{ title: "A", content: "One\n\nTwo" }] },
    });
    expect(checkDraft({ ...fields, changeSummary: "bell\u0007" })).toMatchObject({
      ok: false,
      errors: { changeSummary: "Use plain text." },
    });
    expect(checkDraft({ ...fields, sections: [{ title: "A", content: "x\u0000y" }] })).toMatchObject({
      ok: false,
      errors: { section: { 0: { content: "The text contains control characters; paste it as plain text." } } },
    });
  });

  it("keeps every checked draft representable as a content file: its sections come back as they are", () => {
    const draft = checkDraft({
      ...fields,
      sections: [
        { title: "Scope", content: "Not at the start: ## here\n#### deeper\n##no space\n\nSecond paragraph." },
        { title: "Contact", content: "Write to us." },
      ],
    });
    if (!draft.ok) throw new Error(JSON.stringify(draft.errors));
    expect(splitLegalSections(documentText(draft.draft.sections)).content).toEqual({ sections: draft.draft.sections });
  });
});
