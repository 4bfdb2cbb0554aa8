// What the audit log records, and how the log page names it. Every write in the back office and
// every sign-in, failed or not, adds one entry of one of these kinds.

export const AUDIT_ACTIONS = {
  "sign-in": "Signed in",
  "sign-in.failed": "Sign-in refused",
  "sign-out": "Signed out",
  "sessions.ended": "Sessions ended",
  reauthenticated: "Confirmed identity",
  "invitation.created": "Invitation created",
  "invitation.accepted": "Invitation accepted",
  "invitation.revoked": "Invitation revoked",
  "user.created": "Person added",
  "user.roles-changed": "Roles changed",
  "user.disabled": "Person disabled",
  "user.enabled": "Person enabled",
  "user.sso-linked": "Linked to the identity provider",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "audit.exported": "Audit log exported",
  "post.created": "Post created",
  "post.saved": "Post saved",
  "post.published": "Post published",
  "post.scheduled": "Post scheduled",
  "post.unpublished": "Post unpublished",
  "post.restored": "Post revision restored",
  "post.preview-link": "Post preview link made",
  "media.uploaded": "Image uploaded",
  "media.alt-changed": "Image alt text changed",
  "media.deleted": "Image deleted",
  "legal.draft-created": "Legal draft created",
  "legal.draft-saved": "Legal draft saved",
  "legal.published": "Legal version published",
  "legal.draft-discarded": "Legal draft discarded",
  "leads.purged": "Expired leads deleted",
  "privacy.looked-up": "Privacy request: data looked up",
  "privacy.exported": "Privacy request: data exported",
  "privacy.corrected": "Privacy request: field corrected",
  "privacy.erased": "Privacy request: data erased",
  "lead.view": "Lead viewed",
  "lead.status": "Lead status changed",
  "lead.owner": "Lead assigned",
  "lead.note": "Lead note added",
  "lead.reply": "Lead reply recorded",
  "lead.redeliver": "Lead delivery queued again",
  "lead.export": "Leads exported",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}
