import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { LEAD_FORM_IDS, type LeadFormId } from "~/features/leads/registry";

// The lead spool: where a server keeps a valid lead while the database cannot be reached, one
// file per lead on the server's own disk, until the replay job (./spool-replay.server) has stored
// it. A lead is written to a temporary name, fsynced, renamed into place and the directory fsynced
// before the visitor is told "sent": after that, a crash, a SIGKILL or a power cut leaves it on
// disk. The directory is the service user's alone (0700, files 0600): it holds what visitors typed.
// One directory per server process: the byte count that bounds it is kept in that process.

/** One kept lead: the lead's own id and time (it is stored under them), its form and its values. */
export type SpoolEntry = {
  id: string;
  form: LeadFormId;
  createdAt: string;
  lead: Record<string, unknown>;
};

export type SpoolDepth = { entries: number; bytes: number };

/** The spool would pass its size limit with this lead: it is refused, and the visitor told so. */
export class SpoolFullError extends Error {
  override name = "SpoolFullError";
}

/** A file in the spool that is no entry (cut short, edited, from another version): set aside, never replayed blind. */
export class SpoolEntryError extends Error {
  override name = "SpoolEntryError";
}

const ENTRY = /^\d{13}-[0-9a-f-]{36}\.json$/;
const TEMPORARY = /^\..*\.tmp$/;
/** Entries that could not be read or stored are moved here for an operator to look at. */
export const REJECTED_DIR = "rejected";

const FORMAT_VERSION = 1;

export type LeadSpool = {
  readonly dir: string;
  readonly maxBytes: number;
  /** Entries and bytes on disk (and being written). Opens the directory on first use: may throw. */
  depth: () => SpoolDepth;
  /** Keeps `entry` durably; resolves only after file and directory are fsynced. SpoolFullError over the limit. */
  write: (entry: SpoolEntry) => Promise<void>;
  /**
   * The names of the entries on disk, oldest first; counts them again (another process may have
   * removed some), unless a write or removal of this process finished meanwhile.
   */
  list: () => Promise<string[]>;
  read: (name: string) => Promise<SpoolEntry>;
  /** Removes a stored entry; one already gone (another replayer took it) is no error. */
  remove: (name: string) => Promise<void>;
  /** Moves an entry that cannot be stored into `rejected/`, out of the replay's way. */
  reject: (name: string) => Promise<void>;
  /** How many entries wait in `rejected/`. */
  rejected: () => number;
  /** The names of the entries in `rejected/`, oldest first (none when there is no such directory). */
  listRejected: () => Promise<string[]>;
  /** A file's text, waiting or in `rejected/`, entry or not (an erasure must find an address in either). */
  readText: (name: string, state: SpoolState) => Promise<string>;
  /** Deletes a file, waiting or in `rejected/`, for good (an erasure); one already gone is no error. */
  erase: (name: string, state: SpoolState) => Promise<void>;
};

/** Where a file of the spool is: waiting to be stored, or set aside in `rejected/`. */
export type SpoolState = "waiting" | "rejected";

/** The time (milliseconds) a spool file's name starts with: when its lead was posted. */
export function postedAtOf(name: string): number {
  return Number(name.slice(0, 13));
}

/** Whether `name` is the name of a spool entry. */
export function isSpoolEntryName(name: string): boolean {
  return ENTRY.test(name);
}

/**
 * The spool in `dir`, at most `maxBytes` of entries. Nothing is touched until first use, when the
 * directory is made (0700, or tightened to it), leftovers of writes cut short are removed (they
 * were never acknowledged: the rename comes before the answer) and the entries counted.
 */
export function openLeadSpool({ dir, maxBytes }: { dir: string; maxBytes: number }): LeadSpool {
  const root = path.resolve(dir);
  let opened = false;
  let onDisk: SpoolDepth = { entries: 0, bytes: 0 };
  let reserved = 0;
  let writing = 0;
  // Bumped by every write and removal this process finishes: a count taken from the directory while
  // one finished may have missed it, and must not replace the running one.
  let changes = 0;

  const ensureOpen = () => {
    if (opened) return;
    mkdirSync(root, { recursive: true, mode: 0o700 });
    chmodSync(root, 0o700);
    let entries = 0;
    let bytes = 0;
    for (const name of readdirSync(root)) {
      const file = path.join(root, name);
      if (TEMPORARY.test(name)) unlinkSync(file);
      else if (ENTRY.test(name)) {
        entries += 1;
        bytes += statSync(file).size;
      }
    }
    onDisk = { entries, bytes };
    opened = true;
  };

  const syncDirectory = async (directory: string) => {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  };

  const removeWaiting = async (name: string) => {
    const file = path.join(root, name);
    const size = await stat(file).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) return;
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    onDisk = { entries: Math.max(0, onDisk.entries - 1), bytes: Math.max(0, onDisk.bytes - size) };
    changes += 1;
  };

  return {
    dir: root,
    maxBytes,
    depth() {
      ensureOpen();
      return { entries: onDisk.entries + writing, bytes: onDisk.bytes + reserved };
    },
    async write(entry) {
      ensureOpen();
      const body = Buffer.from(JSON.stringify({ version: FORMAT_VERSION, ...entry }), "utf8");
      // Counted before the first await, so leads written at once cannot together pass the limit.
      if (onDisk.bytes + reserved + body.length > maxBytes) {
        throw new SpoolFullError(`the lead spool ${root} is full (${onDisk.bytes + reserved} of ${maxBytes} bytes)`);
      }
      reserved += body.length;
      writing += 1;
      const temporary = path.join(root, `.${randomUUID()}.tmp`);
      const name = `${String(Date.parse(entry.createdAt)).padStart(13, "0")}-${entry.id}.json`;
      try {
        const handle = await open(temporary, "wx", 0o600);
        try {
          await handle.chmod(0o600); // whatever the umask
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, path.join(root, name));
        await syncDirectory(root);
        onDisk = { entries: onDisk.entries + 1, bytes: onDisk.bytes + body.length };
        changes += 1;
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      } finally {
        reserved -= body.length;
        writing -= 1;
      }
    },
    async list() {
      ensureOpen();
      const changesBefore = changes;
      const names = (await readdir(root)).filter((name) => ENTRY.test(name)).sort();
      let bytes = 0;
      let entries = 0;
      for (const name of names) {
        const size = await stat(path.join(root, name)).then(
          (info) => info.size,
          () => undefined,
        );
        if (size === undefined) continue;
        entries += 1;
        bytes += size;
      }
      if (changes === changesBefore) onDisk = { entries, bytes };
      return names;
    },
    async read(name) {
      const text = await readFile(path.join(root, name), "utf8");
      return parseEntry(text, name);
    },
    remove: removeWaiting,
    async reject(name) {
      const rejectedDir = path.join(root, REJECTED_DIR);
      await mkdir(rejectedDir, { recursive: true, mode: 0o700 });
      const file = path.join(root, name);
      const size = (await stat(file)).size;
      await rename(file, path.join(rejectedDir, name));
      await syncDirectory(root);
      onDisk = { entries: Math.max(0, onDisk.entries - 1), bytes: Math.max(0, onDisk.bytes - size) };
      changes += 1;
    },
    rejected() {
      try {
        return readdirSync(path.join(root, REJECTED_DIR)).filter((name) => ENTRY.test(name)).length;
      } catch {
        return 0;
      }
    },
    async listRejected() {
      const names = await readdir(path.join(root, REJECTED_DIR)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      return names.filter((name) => ENTRY.test(name)).sort();
    },
    async readText(name, state) {
      return readFile(path.join(state === "waiting" ? root : path.join(root, REJECTED_DIR), name), "utf8");
    },
    async erase(name, state) {
      if (state === "waiting") return removeWaiting(name);
      const directory = path.join(root, REJECTED_DIR);
      try {
        await unlink(path.join(directory, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      await syncDirectory(directory);
    },
  };
}

/** The entry in a file's text, or undefined when it is none (cut short, edited, another version). */
export function entryOf(text: string, name: string): SpoolEntry | undefined {
  try {
    return parseEntry(text, name);
  } catch (error) {
    if (error instanceof SpoolEntryError) return undefined;
    throw error;
  }
}

function parseEntry(text: string, name: string): SpoolEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SpoolEntryError(`${name} is not JSON`);
  }
  const { version, id, form, createdAt, lead } = (parsed ?? {}) as Record<string, unknown>;
  if (
    version !== FORMAT_VERSION ||
    typeof id !== "string" ||
    !name.endsWith(`-${id}.json`) ||
    !(LEAD_FORM_IDS as readonly unknown[]).includes(form) ||
    typeof createdAt !== "string" ||
    Number.isNaN(Date.parse(createdAt)) ||
    !lead ||
    typeof lead !== "object"
  ) {
    throw new SpoolEntryError(`${name} is not a lead spool entry of version ${FORMAT_VERSION}`);
  }
  return { id, form: form as LeadFormId, createdAt, lead: lead as Record<string, unknown> };
}

let serverSpool: LeadSpool | undefined;

/** This server's spool: LEAD_SPOOL_DIR, bounded by LEAD_SPOOL_MAX_BYTES. */
export function serverLeadSpool(env: { LEAD_SPOOL_DIR: string; LEAD_SPOOL_MAX_BYTES: number }): LeadSpool {
  serverSpool ??= openLeadSpool({ dir: env.LEAD_SPOOL_DIR, maxBytes: env.LEAD_SPOOL_MAX_BYTES });
  return serverSpool;
}
