import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import type { Kysely } from "kysely";
import {
  deleteErasedLead,
  erasuresSince,
  normalizeAddress,
  subjectHash,
  type SpooledLead,
} from "~/features/privacy/db/data-subject.server";
import type { Database } from "~/db/schema";
import { leadForms } from "~/features/leads/registry";
import {
  entryOf,
  isSpoolEntryName,
  postedAtOf,
  type LeadSpool,
  type SpoolEntry,
  type SpoolState,
} from "~/features/leads/spool.server";
import { logger } from "~/platform/logger.server";

// Privacy requests and the lead spool. A spool lives on each server's own disk, out of reach of the
// server (or command) that erases an address; so an erasure is recorded in the database (the
// address's hash and the time, `subject_erasures`) and every server applies it to its own spool,
// waiting and rejected entries alike, on its replay job's next pass, before storing anything:
// an erased lead is never stored again from a spool. Only leads posted before the erasure go: one
// posted after it is a new request of that person's.

type SpoolFile = { name: string; state: SpoolState };

/**
 * Everything in the spool, waiting and rejected, oldest first. Read without opening the spool (which
 * makes the directory and clears leftover temporary files): the command line may look at the
 * directory of a server that is running and writing into it.
 */
async function spoolFiles(spool: LeadSpool): Promise<SpoolFile[]> {
  if (!existsSync(spool.dir)) return [];
  const waiting = (await readdir(spool.dir)).filter(isSpoolEntryName).sort();
  const rejected = await spool.listRejected();
  return [
    ...waiting.map((name) => ({ name, state: "waiting" as const })),
    ...rejected.map((name) => ({ name, state: "rejected" as const })),
  ];
}

async function readFile(spool: LeadSpool, file: SpoolFile): Promise<string | undefined> {
  return spool.readText(file.name, file.state).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined; // stored or erased meanwhile
    throw error;
  });
}

/** Anything shaped like an address, for a file that is no entry (cut short, edited): it may still hold one. */
const ADDRESS_SHAPED = /[^\s"'<>(),;:\\[\]{}]+@[^\s"'<>(),;:\\[\]{}]+/g;

/** The entry in a file, and the addresses it names: the lead's email, or in a file that is no entry, any address in it. */
function addressesOf(text: string, name: string): { entry?: SpoolEntry; addresses: string[] } {
  const entry = entryOf(text, name);
  if (!entry) return { addresses: text.match(ADDRESS_SHAPED) ?? [] };
  const email = entry.lead.email;
  return { entry, addresses: typeof email === "string" && email.trim() ? [email] : [] };
}

/** What this spool keeps about `email` (waiting to be stored, or rejected), for a privacy look-up or export. */
export async function findInSpool(spool: LeadSpool, email: string): Promise<SpooledLead[]> {
  const wanted = normalizeAddress(email);
  const found: SpooledLead[] = [];
  for (const file of await spoolFiles(spool)) {
    const text = await readFile(spool, file);
    if (text === undefined) continue;
    const { entry, addresses } = addressesOf(text, file.name);
    if (!addresses.some((address) => normalizeAddress(address) === wanted)) continue;
    found.push({
      file: file.name,
      state: file.state,
      form: entry?.form ?? null,
      id: entry?.id ?? null,
      created_at: entry?.createdAt ?? new Date(postedAtOf(file.name)).toISOString(),
      lead: entry?.lead ?? null,
    });
  }
  return found;
}

/** What one spool file says, for matching against erasures: its entry (if it is one), when it was posted, its addresses' hashes. */
type FileFacts = { entry?: SpoolEntry; postedAt: number; hashes: string[] };

/**
 * Each spool's files as already read, by state and name. A spool file is written once (a new name
 * for each lead) and only ever deleted, so the replay's pass, every second while anything waits or
 * lies rejected, reads each file once rather than on every pass.
 */
const factsBySpool = new WeakMap<LeadSpool, Map<string, FileFacts>>();

async function factsOf(spool: LeadSpool, file: SpoolFile, known: Map<string, FileFacts>): Promise<FileFacts | undefined> {
  const key = `${file.state}/${file.name}`;
  const cached = known.get(key);
  if (cached) return cached;
  const text = await readFile(spool, file);
  if (text === undefined) return undefined;
  const { entry, addresses } = addressesOf(text, file.name);
  const facts = {
    entry,
    postedAt: entry ? Date.parse(entry.createdAt) : postedAtOf(file.name),
    hashes: addresses.map((address) => subjectHash(address)),
  };
  known.set(key, facts);
  return facts;
}

/**
 * Deletes from this spool every file of an address erased since its lead was posted, and any copy
 * of such a lead that reached the database (a replay that raced the erasure). Asks the database
 * only when the spool holds anything, and reads files only when an erasure was recorded since the
 * oldest of them was posted, each file once: an idle server's pass costs a directory listing.
 * Returns how many files went. Throws what the database throws (an unreachable one: the replay
 * waits too).
 */
export async function applyErasuresToSpool(spool: LeadSpool, db: Kysely<Database>): Promise<number> {
  const files = await spoolFiles(spool);
  const known = factsBySpool.get(spool) ?? new Map<string, FileFacts>();
  factsBySpool.set(spool, known);
  // Forget files that are gone (stored, erased, or cleared by an operator).
  const present = new Set(files.map((file) => `${file.state}/${file.name}`));
  for (const key of known.keys()) if (!present.has(key)) known.delete(key);
  if (files.length === 0) return 0;
  const oldest = files.reduce((earliest, file) => Math.min(earliest, postedAtOf(file.name)), Infinity);
  const erasures = await erasuresSince(db, new Date(oldest).toISOString());
  if (erasures.size === 0) return 0;
  let erased = 0;
  for (const file of files) {
    const facts = await factsOf(spool, file, known);
    if (!facts) continue;
    const hit = facts.hashes.some((hash) => {
      const at = erasures.get(hash);
      return at !== undefined && Date.parse(at) >= facts.postedAt;
    });
    if (!hit) continue;
    if (facts.entry) await deleteErasedLead(db, leadForms[facts.entry.form].table, facts.entry.id);
    await spool.erase(file.name, file.state);
    known.delete(`${file.state}/${file.name}`);
    erased += 1;
  }
  // How many, never whose.
  if (erased > 0) logger.info({ erased }, "lead spool: leads of erased addresses deleted");
  return erased;
}
