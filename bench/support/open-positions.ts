// Open positions for a benchmark's database: the sample content as `npm start` seeds it, then more
// positions saved and published through the content core as an editor would, until `count` are open.
// The extra positions vary as a real board does (teams, places, workplaces, employment types, pay
// in three currencies or none) and are the same on every run, so runs compare.
import path from "node:path";
import type { Kysely } from "kysely";
import type { Editor } from "~/features/content/core.server";
import type { PositionSnapshot } from "~/features/content/content-types";
import { createUser } from "~/features/auth/db/admin-users.server";
import {
  checkPositionFiles,
  publishPosition,
  readPositionFiles,
  savePosition,
} from "~/features/careers/position-documents.server";
import { positionPath } from "~/features/careers/positions";
import { listOpenPositions } from "~/features/careers/positions.server";
import { seedContent } from "~/features/content/db/content-import.server";
import { migrateToLatest, openDatabase } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { logger } from "~/platform/logger.server";

const REPO = path.resolve(import.meta.dirname, "../..");

const TEAMS = [
  { team: "Engineering", roles: ["Backend Engineer", "Frontend Engineer", "Site Reliability Engineer", "Data Engineer"] },
  { team: "Research", roles: ["Machine Learning Researcher", "Security Researcher", "Applied Scientist"] },
  { team: "Security Operations", roles: ["Detection Engineer", "Incident Responder", "Threat Intelligence Analyst"] },
  { team: "Product", roles: ["Product Manager", "Technical Writer", "Product Analyst"] },
  { team: "Design", roles: ["Product Designer", "Design Systems Engineer"] },
  { team: "Sales", roles: ["Account Executive", "Solutions Engineer", "Sales Development Representative"] },
  { team: "Customer Success", roles: ["Customer Success Manager", "Support Engineer"] },
  { team: "Governance", roles: ["Privacy Counsel", "Risk Analyst"] },
  { team: "Marketing", roles: ["Content Marketing Manager", "Events Manager"] },
  { team: "People", roles: ["Recruiter", "People Partner"] },
];
const LEVELS = ["", "Senior ", "Staff ", "Principal ", "Junior "];
const FOCUS = [
  "Detection Platform",
  "Policy Engine",
  "Browser Extension",
  "Enterprise Accounts",
  "EMEA",
  "North America",
  "Data Protection",
];
const OFFICES = ["Berlin", "London", "Paris", "Amsterdam", "Lisbon", "New York", "Toronto", "Singapore"];
const REMOTE = [
  { locations: ["Remote (EU)"], remoteRegions: ["European Union"] },
  { locations: ["Remote (EU or US)"], remoteRegions: ["European Union", "United States"] },
  { locations: ["Remote (US)"], remoteRegions: ["United States"] },
  { locations: ["Remote"], remoteRegions: [] },
];
const CURRENCIES = [
  { currency: "EUR", base: 60_000 },
  { currency: "GBP", base: 55_000 },
  { currency: "USD", base: 90_000 },
];
const EMPLOYMENT = ["full-time", "full-time", "full-time", "part-time", "contract", "temporary", "internship"] as const;

/** The `index`th extra position: the same on every run. */
export function benchPosition(index: number): PositionSnapshot {
  const { team, roles } = TEAMS[index % TEAMS.length]!;
  const role = roles[Math.floor(index / TEAMS.length) % roles.length]!;
  const title = `${LEVELS[Math.floor(index / 3) % LEVELS.length]}${role}, ${FOCUS[index % FOCUS.length]}`;
  const workplace = (["remote", "hybrid", "on-site"] as const)[index % 3]!;
  const where =
    workplace === "remote"
      ? REMOTE[index % REMOTE.length]!
      : {
          locations:
            index % 4 === 0
              ? [OFFICES[index % OFFICES.length]!, OFFICES[(index + 3) % OFFICES.length]!]
              : [OFFICES[index % OFFICES.length]!],
          remoteRegions: [],
        };
  const employmentType = EMPLOYMENT[index % EMPLOYMENT.length]!;
  const money = CURRENCIES[Math.floor(index / 2) % CURRENCIES.length]!;
  const pay =
    index % 5 === 4
      ? null
      : employmentType === "contract"
        ? { min: 60 + (index % 4) * 10, max: 90 + (index % 4) * 10, currency: money.currency, period: "hour" as const }
        : {
            min: money.base + (index % 6) * 5_000,
            max: money.base + (index % 6) * 5_000 + 25_000,
            currency: money.currency,
            period: "year" as const,
          };
  return {
    slug: `${title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")}-${index + 1}`,
    title,
    team,
    ...where,
    workplace,
    employmentType,
    pay,
    summary: `Join the ${team} team and help regulated companies use AI without losing control of their data (${role.toLowerCase()}).`,
    description: [
      `Our customers' people send prompts, files and messages to AI models every day, and the ${team} team makes sure that what leaves the company is what may leave it. As a ${role}, you will work on **${FOCUS[index % FOCUS.length]}** with colleagues in four countries.`,
      "You will have the time to do things well: we plan in six-week cycles, write down what we decide, and keep meetings for what cannot be written.",
    ].join("\n\n"),
    responsibilities: [
      `Own the ${role.toLowerCase()} work of a part of ${FOCUS[index % FOCUS.length]} from the first draft to production.`,
      "Write down what you decide and why, so that the team can build on it.",
      "Work with research, product and customers to choose what to do next.",
      ...(index % 2 ? ["Take part in the team's on-call rotation, one week in eight."] : []),
    ],
    requirements: [
      `${2 + (index % 5)} years or more of experience as a ${role.toLowerCase()} or in a similar role.`,
      "Clear writing in English; our team works across time zones.",
      ...(index % 3 ? ["Interest in security and privacy, or the wish to learn."] : []),
    ],
    hiringContacts: [],
    closesAt: null,
  };
}

/**
 * Prepares the SQLite or PostgreSQL database at `databaseUrl` for a server: migrated, seeded with
 * the sample content as SEED=auto seeds an empty one (so the server's own seed finds nothing to
 * do), then positions saved and published by a bench editor until `count` are open. Returns the
 * number of positions it published.
 */
export async function seedOpenPositions(databaseUrl: string, count: number): Promise<number> {
  // The bench prints figures: the migrations' and the seed's log lines would bury them.
  const level = logger.level;
  logger.level = "warn";
  try {
    const { db, dialect } = await openDatabase(databaseUrl, 1);
    try {
      await migrateToLatest(db, dialect);
      await seedContent(db, path.join(REPO, "content"));
      return await publishUntilOpen(db, count);
    } finally {
      await db.destroy();
    }
  } finally {
    logger.level = level;
  }
}

async function publishUntilOpen(db: Kysely<Database>, count: number): Promise<number> {
  const user = await createUser(db, { email: "bench-editor@quorvant.com", roles: ["editor"] });
  const editor: Editor = { actor: { id: user.id, email: user.email }, ip: "127.0.0.1" };
  const sample = (await listOpenPositions(db)).length;
  if (count < sample) throw new Error(`the sample content has ${sample} open positions: ask for at least that many`);
  for (let index = 0; index < count - sample; index++) {
    const saved = await savePosition(db, editor, { baseRevision: 0, position: benchPosition(index) });
    if (!saved.ok) throw new Error(`bench position ${index} refused: ${JSON.stringify(saved)}`);
    const published = await publishPosition(db, editor, { id: saved.id, baseRevision: saved.revision });
    if (!published.ok) throw new Error(`bench position ${index} not published: ${JSON.stringify(published)}`);
  }
  const open = (await listOpenPositions(db)).length;
  if (open !== count) throw new Error(`${open} positions are open, not ${count}`);
  return count - sample;
}

/** The page of the sample position with the longest description (content/positions): a position's page to measure. */
export function samplePositionPath(): string {
  const { positions } = checkPositionFiles(readPositionFiles(path.join(REPO, "content/positions")).files);
  const longest = positions.map(({ position }) => position).sort((a, b) => b.description.length - a.description.length)[0];
  if (!longest) throw new Error("the sample content has no position");
  return positionPath(longest.slug);
}
