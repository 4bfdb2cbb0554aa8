import { data, Form, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/admin.media";
import { CopyField } from "~/ui/admin/copy-field";
import { CsrfField } from "~/ui/admin/csrf-field";
import { FORMATS, ImageUploadForm } from "~/features/media/admin/image-upload-form";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { ResponsivePicture } from "~/features/media/components/responsive-picture";
import { site } from "~/config/site";
import { requireAdminUploadForm, requireRecentAuthentication, requireRole } from "~/features/auth/auth.server";
import { formatDateTime } from "~/ui/admin/format";
import {
  MAX_ALT_LENGTH,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PIXELS,
  UPLOAD_MESSAGES,
  formatBytes,
  type MediaItem,
  type StoredImage,
} from "~/features/media/media";
import { changeAlt, deleteMedia, listMedia, storeUpload, type MediaFieldErrors } from "~/features/media/media.server";
import { getDb } from "~/db/index.server";

// The media library (editors): upload an image with its alt text, see every image with its size
// and the posts using it (now or in a revision), change alt text, delete an image no post uses.

const ROLE = "editor";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, ROLE);
  return { images: await listMedia(getDb()) };
}

type ActionResult =
  | { intent: "upload"; uploaded: StoredImage }
  | { intent: "upload"; fieldErrors: MediaFieldErrors }
  | { intent: "alt"; id: string; fieldErrors: MediaFieldErrors }
  | { done: string }
  | { problem: string };

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await requireAdminUploadForm(request, ROLE);
  if ("fileTooLarge" in signedIn) {
    return data<ActionResult>({ intent: "upload", fieldErrors: { file: UPLOAD_MESSAGES.tooLarge } }, { status: 413 });
  }
  const { user, form } = signedIn;
  const actor = { id: user.id, email: user.email, ip: context.clientIp };
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");

  if (intent === "upload") {
    const result = await storeUpload(getDb(), form.get("file"), form.get("alt"), actor);
    if (!result.ok) return data<ActionResult>({ intent: "upload", fieldErrors: result.fieldErrors }, { status: 400 });
    return data<ActionResult>({ intent: "upload", uploaded: result.image });
  }

  if (intent === "alt") {
    const result = await changeAlt(getDb(), id, form.get("alt"), actor);
    if (result.ok) return data<ActionResult>({ done: "The alt text was saved." });
    if ("notFound" in result) return data<ActionResult>({ problem: "That image is no longer in the library." }, { status: 404 });
    return data<ActionResult>({ intent: "alt", id, fieldErrors: result.fieldErrors }, { status: 400 });
  }

  if (intent === "delete") {
    requireRecentAuthentication(signedIn, "/admin/media");
    const result = await deleteMedia(getDb(), id, actor);
    if (result.ok) return data<ActionResult>({ done: "The image was deleted." });
    if ("notFound" in result) return data<ActionResult>({ problem: "That image is no longer in the library." }, { status: 404 });
    return data<ActionResult>(
      {
        problem: `This image is used by ${result.usedBy.map((title) => `“${title}”`).join(", ")}: it cannot be deleted while a post uses it. Take it out of those posts first.`,
      },
      { status: 409 },
    );
  }
  return data<ActionResult>({ problem: "Unknown action." }, { status: 400 });
}

/** A refused delete (409) still reloads the library: it then shows the posts using the image. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" || defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = () => [{ title: `Media | ${site.company} back office` }];

export default function Media({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionResult | undefined;
  const uploadErrors =
    result && "intent" in result && result.intent === "upload" && "fieldErrors" in result ? result.fieldErrors : undefined;
  const uploaded = result && "uploaded" in result ? result.uploaded : undefined;

  return (
    <>
      <PageHeading title="Media">
        Images for posts. {FORMATS}; at most {formatBytes(MAX_UPLOAD_BYTES)} and {MAX_UPLOAD_PIXELS / 1_000_000} megapixels.
      </PageHeading>
      {result && "problem" in result ? <Notice tone="error">{result.problem}</Notice> : null}
      {result && "done" in result ? <Notice tone="success">{result.done}</Notice> : null}
      {uploaded ? (
        <Notice tone="success">
          <p>
            Uploaded ({uploaded.width} × {uploaded.height}). Use it as a post&apos;s image, or in a post&apos;s text as{" "}
            <code>
              ![{uploaded.alt}]({uploaded.url})
            </code>
            .
          </p>
          <CopyField label="Image URL" value={uploaded.url} />
        </Notice>
      ) : null}

      <Panel title="Upload an image" id="upload">
        <ImageUploadForm idPrefix="media" errors={uploadErrors} uploaded={uploaded} />
      </Panel>

      <Panel title={`Library (${loaderData.images.length})`} id="library">
        {loaderData.images.length === 0 ? (
          <p className="text-sm text-muted">No images yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {loaderData.images.map((image) => (
              <LibraryItem key={image.id} image={image} result={result} />
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}

function LibraryItem({ image, result }: { image: MediaItem; result: ActionResult | undefined }) {
  const altError =
    result && "intent" in result && result.intent === "alt" && result.id === image.id ? result.fieldErrors.alt : undefined;
  const altId = `alt-${image.id}`;
  return (
    <li className="flex flex-col gap-4 py-4 sm:flex-row" aria-label={image.alt}>
      <div className="w-full shrink-0 sm:w-48">
        <ResponsivePicture
          image={image.picture}
          alt={image.alt}
          sizes="192px"
          className="aspect-video w-full rounded bg-slate-100 object-contain"
        />
      </div>
      <div className="min-w-0 flex-1 space-y-3 text-sm">
        <p>
          <span className="font-medium">{image.originalName || image.fileName}</span>{" "}
          <span className="text-muted">
            {image.type}, {image.width} × {image.height}, {image.size}, uploaded {formatDateTime(image.uploadedAt)}
          </span>
        </p>
        <p className="font-mono text-xs break-all text-muted">{image.url}</p>
        <div>
          {image.usedBy.length === 0 ? (
            <p className="text-muted">Not used by any post.</p>
          ) : (
            <>
              <p>Used by:</p>
              <ul className="list-disc pl-5">
                {image.usedBy.map((post) => (
                  <li key={post.id}>
                    {post.published ? (
                      <Link to={post.href} className="text-brand-700 underline">
                        {post.title}
                      </Link>
                    ) : (
                      <>{post.title} (not published)</>
                    )}
                    {post.onlyInRevisions ? (
                      <>
                        {" "}
                        (in an earlier{" "}
                        <Link to={`/admin/posts/${post.id}/revisions`} className="text-brand-700 underline">
                          revision
                        </Link>
                        , which restoring would bring back)
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <CsrfField />
          <input type="hidden" name="intent" value="alt" />
          <input type="hidden" name="id" value={image.id} />
          <div className="min-w-0 flex-1">
            <label htmlFor={altId} className="block font-medium">
              Alt text
            </label>
            <input
              id={altId}
              name="alt"
              type="text"
              required
              maxLength={MAX_ALT_LENGTH}
              defaultValue={image.alt}
              aria-invalid={altError ? true : undefined}
              aria-describedby={altError ? `${altId}-error` : undefined}
              className={fieldClasses}
            />
            <FieldError id={`${altId}-error`} message={altError} />
          </div>
          <button type="submit" className={buttonClasses("secondary")}>
            Save<span className="sr-only"> alt text</span>
          </button>
        </Form>
        <Form method="post">
          <CsrfField />
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={image.id} />
          <button type="submit" className="font-semibold text-red-700 underline">
            Delete<span className="sr-only"> {image.alt}</span>
          </button>
          {image.usedBy.length > 0 ? <span className="ml-2 text-muted">(in use: it cannot be deleted)</span> : null}
        </Form>
      </div>
    </li>
  );
}
