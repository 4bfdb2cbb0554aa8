import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

// How an audit entry is hashed into the chain: SHA-256 (hex) over a canonical JSON text of its
// content and the previous entry's hash. The migration that chained the existing entries and the
// verification both use this module; changing what it produces breaks every stored chain, so
// don't (a new form would be a new version, with its own migration).

/** The previous hash of the first entry in the chain. */
export const AUDIT_CHAIN_GENESIS = "0".repeat(64);

/** What an entry's hash covers, as the data layer reads it back (created_at as toIso gives it). */
export type AuditChainContent = {
  id: string;
  seq: number;
  createdAt: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  ip: string;
  prevHash: string;
};

/**
 * The JSON Canonicalization Scheme (RFC 8785): keys sorted at every depth, no white space,
 * numbers as ECMAScript writes them. The value goes through JSON first, so undefined members,
 * toJSON and the like come out as they would be stored.
 */
export function canonicalJson(value: unknown): string {
  return canonicalize(JSON.parse(JSON.stringify(value ?? null)) as unknown) ?? "null";
}

export function auditEntryHash(entry: AuditChainContent): string {
  const text = canonicalJson({
    id: entry.id,
    seq: entry.seq,
    created_at: entry.createdAt,
    actor_id: entry.actorId,
    actor_email: entry.actorEmail,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    details: entry.details,
    ip: entry.ip,
    prev_hash: entry.prevHash,
  });
  return createHash("sha256").update(text).digest("hex");
}
