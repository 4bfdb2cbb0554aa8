// A legal document's draft as the back office edits it: the fields, their limits, reading them from
// the editor's form, rearranging its sections. Browser-safe and free of libraries: the editor's
// inputs take their limits from here (the schema that checks a draft is draft-check.server.ts).

export const LEGAL_LIMITS = {
  title: 200,
  changeSummary: 500,
  sections: 50,
  sectionTitle: 200,
  sectionText: 20_000,
} as const;

/**
 * A section heading in a content file (`## Title`). A line of section text that looks like one
 * would become a section of its own when the document is exported and imported again, so the
 * editor refuses it; the content file reader splits on the same pattern.
 */
export const LEGAL_SECTION_HEADING = /^## +(.+?)\s*$/;

/** Digits separated by dots, as the documents have always been numbered (1.0, 2.1, 3). */
export const VERSION_PATTERN = /^\d{1,4}(\.\d{1,4}){0,3}$/;

export type DraftSection = { title: string; content: string };

/** The editor's fields, as typed (strings), before or after checking. */
export type DraftFields = {
  title: string;
  version: string;
  effectiveDate: string;
  changeSummary: string;
  sections: DraftSection[];
};

export type DraftErrors = {
  title?: string;
  version?: string;
  effectiveDate?: string;
  changeSummary?: string;
  sections?: string;
  /** Per section (by position): its title's and text's problems. */
  section?: Record<number, { title?: string; content?: string }>;
};

/** The form's names for the fields; sections repeat their two names in document order. */
export const DRAFT_FIELD_NAMES = {
  title: "title",
  version: "version",
  effectiveDate: "effective_date",
  changeSummary: "change_summary",
  sectionTitle: "section_title",
  sectionText: "section_text",
} as const;

/** Reads the editor's form as typed. Anything missing is empty; extra section texts or titles pair up by position. */
export function readDraftForm(form: URLSearchParams | FormData): DraftFields {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const all = (name: string) => form.getAll(name).map((value) => (typeof value === "string" ? value : ""));
  const titles = all(DRAFT_FIELD_NAMES.sectionTitle);
  const texts = all(DRAFT_FIELD_NAMES.sectionText);
  // A hostile form may send thousands; one past the limit is enough for the schema to refuse it.
  const count = Math.min(Math.max(titles.length, texts.length), LEGAL_LIMITS.sections + 1);
  return {
    title: text(DRAFT_FIELD_NAMES.title),
    version: text(DRAFT_FIELD_NAMES.version),
    effectiveDate: text(DRAFT_FIELD_NAMES.effectiveDate),
    changeSummary: text(DRAFT_FIELD_NAMES.changeSummary),
    sections: Array.from({ length: count }, (_, index) => ({ title: titles[index] ?? "", content: texts[index] ?? "" })),
  };
}

/** The editor's buttons that rearrange sections without saving: add one, move or remove one. */
export type SectionEdit = { kind: "add" } | { kind: "up" | "down" | "remove"; index: number };

export function parseSectionEdit(intent: string): SectionEdit | undefined {
  if (intent === "add-section") return { kind: "add" };
  const match = /^(up|down|remove):(\d{1,3})$/.exec(intent);
  if (!match) return undefined;
  return { kind: match[1] as "up" | "down" | "remove", index: Number(match[2]) };
}

/** The sections after one edit; out-of-range positions change nothing. Also returns where focus should go. */
export function applySectionEdit(sections: DraftSection[], edit: SectionEdit): { sections: DraftSection[]; focus?: number } {
  const next = [...sections];
  if (edit.kind === "add") {
    if (next.length >= LEGAL_LIMITS.sections) return { sections: next };
    next.push({ title: "", content: "" });
    return { sections: next, focus: next.length - 1 };
  }
  const { index } = edit;
  if (index < 0 || index >= next.length) return { sections: next };
  if (edit.kind === "remove") {
    next.splice(index, 1);
    return { sections: next, focus: Math.min(index, next.length - 1) };
  }
  const target = edit.kind === "up" ? index - 1 : index + 1;
  if (target < 0 || target >= next.length) return { sections: next, focus: index };
  [next[index], next[target]] = [next[target]!, next[index]!];
  return { sections: next, focus: target };
}

/** The number after the newest one (2.1 → 2.2, 3 → 4), skipping numbers already taken. */
export function suggestVersion(latest: string | undefined, taken: ReadonlySet<string>): string {
  const bump = (version: string) => {
    const parts = version.split(".").map(Number);
    parts[parts.length - 1]! += 1;
    return parts.join(".");
  };
  let candidate = latest && VERSION_PATTERN.test(latest) ? bump(latest) : "1.0";
  for (let tries = 0; taken.has(candidate) && tries < 10_000; tries += 1) candidate = bump(candidate);
  return candidate;
}

/** A row's sections as far as they can be read: a broken document's editor starts from what is usable. */
export function salvageSections(content: unknown): DraftSection[] {
  const sections = (content as { sections?: unknown } | null)?.sections;
  if (!Array.isArray(sections)) return [];
  return sections.map((section: unknown) => {
    const { title, content: text } = (section ?? {}) as { title?: unknown; content?: unknown };
    return { title: typeof title === "string" ? title : "", content: typeof text === "string" ? text : "" };
  });
}

/** A stored date as the date input shows it (YYYY-MM-DD, UTC), and back. */
export function effectiveDay(iso: string): string {
  return iso.slice(0, 10);
}

export function effectiveTimestamp(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The whole document as one text, for comparing two versions line by line. */
export function documentText(sections: readonly DraftSection[]): string {
  return sections.map((section) => `## ${section.title}\n\n${section.content}`).join("\n\n");
}
