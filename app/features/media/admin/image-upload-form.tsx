import { useEffect, useRef, useState } from "react";
import { Form, useFetcher } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { buttonClasses } from "~/ui/button";
import { MAX_ALT_LENGTH, MAX_UPLOAD_BYTES, MEDIA_TYPES, UPLOAD_MESSAGES, type StoredImage } from "~/features/media/media";

// Uploading one image with its alt text, to the media library's action: on the library page
// itself, and "on the spot" beside a post's image choice (there through a fetcher, so the post
// being edited stays as it is).

export type UploadErrors = { file?: string; alt?: string };
export type UploadAnswer = { intent?: string; uploaded?: StoredImage; fieldErrors?: UploadErrors };

const ACCEPT = Object.keys(MEDIA_TYPES).join(",");
export const FORMATS = Object.values(MEDIA_TYPES)
  .map((type) => type.label)
  .join(", ");
/**
 * The upload form. `fetcher` posts it without leaving the page (to /admin/media); without one it
 * is the page's own form. `errors` are the action's answer; `uploaded` resets it.
 */
export function ImageUploadForm({
  idPrefix,
  errors,
  uploaded,
  fetcher,
}: {
  idPrefix: string;
  errors?: UploadErrors;
  uploaded?: StoredImage;
  fetcher?: ReturnType<typeof useFetcher>;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  // Checked in the browser too, so a file over the cap is not sent at all.
  const [fileTooLarge, setFileTooLarge] = useState(false);
  const fileError = fileTooLarge ? UPLOAD_MESSAGES.tooLarge : errors?.file;
  useEffect(() => {
    if (uploaded) formRef.current?.reset();
  }, [uploaded]);
  const FormElement = fetcher ? fetcher.Form : Form;
  return (
    <FormElement
      method="post"
      action={fetcher ? "/admin/media" : undefined}
      encType="multipart/form-data"
      ref={formRef}
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        if (fileTooLarge) event.preventDefault();
      }}
    >
      <CsrfField />
      <input type="hidden" name="intent" value="upload" />
      <div>
        <label htmlFor={`${idPrefix}-file`} className="block text-sm font-medium">
          Image file
        </label>
        <input
          id={`${idPrefix}-file`}
          name="file"
          type="file"
          accept={ACCEPT}
          required
          onChange={(event) => setFileTooLarge((event.currentTarget.files?.[0]?.size ?? 0) > MAX_UPLOAD_BYTES)}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? `${idPrefix}-file-error` : `${idPrefix}-file-hint`}
          className="mt-1.5 block text-sm"
        />
        <p id={`${idPrefix}-file-hint`} className="mt-1 text-xs text-muted">
          {FORMATS}. Location and camera details are removed.
        </p>
        <FieldError id={`${idPrefix}-file-error`} message={fileError} />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-alt`} className="block text-sm font-medium">
          Alt text
        </label>
        <input
          id={`${idPrefix}-alt`}
          name="alt"
          type="text"
          required
          maxLength={MAX_ALT_LENGTH}
          aria-invalid={errors?.alt ? true : undefined}
          aria-describedby={errors?.alt ? `${idPrefix}-alt-error` : `${idPrefix}-alt-hint`}
          className={fieldClasses}
        />
        <p id={`${idPrefix}-alt-hint`} className="mt-1 text-xs text-muted">
          What the image shows, for people who cannot see it.
        </p>
        <FieldError id={`${idPrefix}-alt-error`} message={errors?.alt} />
      </div>
      <button type="submit" className={buttonClasses()} disabled={fetcher ? fetcher.state !== "idle" : undefined}>
        Upload
      </button>
    </FormElement>
  );
}
