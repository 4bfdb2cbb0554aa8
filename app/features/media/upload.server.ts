import { MaxFileSizeExceededError, parseFormData } from "@remix-run/form-data-parser";
import { MAX_UPLOAD_BYTES } from "~/features/media/media";
import { discardBody, readFormBody, type FormBody } from "~/features/leads/forms/body.server";

// Back-office forms that carry an image file. Everywhere else a body is at most 64 KiB; these
// paths take one file of up to MAX_UPLOAD_BYTES, parsed as it streams in (a well-kept multipart
// parser with hard limits) so nothing larger is ever held in memory.

/** Paths whose form may carry an image file (and the router's data requests for them). */
export const UPLOAD_FORM_PATHS: readonly string[] = ["/admin/media"];

/** The largest body such a path takes: one file at its cap, plus the form's other fields and framing. */
export const MAX_UPLOAD_FORM_BYTES = MAX_UPLOAD_BYTES + 256 * 1024;

export function acceptsUploads(pathname: string): boolean {
  return UPLOAD_FORM_PATHS.some((path) => pathname === path || pathname === `${path}.data`);
}

export type UploadFormBody = FormBody | { ok: false; status: 413; fileTooLarge: true };

/**
 * A form post that may carry one file: urlencoded forms as everywhere (64 KiB), multipart ones
 * streamed with their file capped at MAX_UPLOAD_BYTES. A file over its cap is reported as such
 * (the rest of the body is read and dropped so the answer reaches the browser); any other
 * malformed or oversized body is a 400 or 413.
 */
export async function readUploadForm(request: Request): Promise<UploadFormBody> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "multipart/form-data") return readFormBody(request);
  try {
    const form = await parseFormData(request, {
      maxFiles: 1,
      maxFileSize: MAX_UPLOAD_BYTES,
      maxParts: 20,
      maxTotalSize: MAX_UPLOAD_FORM_BYTES,
    });
    return { ok: true, payload: form };
  } catch (error) {
    // The parser stops reading where the limit was passed; the browser is still sending.
    await discardBody(request, MAX_UPLOAD_FORM_BYTES);
    if (error instanceof MaxFileSizeExceededError) return { ok: false, status: 413, fileTooLarge: true };
    return { ok: false, status: error instanceof Error && error.name.startsWith("Max") ? 413 : 400 };
  }
}
