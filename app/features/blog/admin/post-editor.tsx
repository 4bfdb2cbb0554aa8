import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Form, useBlocker, useFetcher, useNavigation, useRevalidator } from "react-router";
import { CsrfField, useCsrfToken } from "~/ui/admin/csrf-field";
import { SourceFields } from "~/features/content/admin/translations";
import { ImageUploadForm, type UploadAnswer } from "~/features/media/admin/image-upload-form";
import { MediaPicker } from "~/features/media/admin/media-picker";
import { Notice } from "~/ui/admin/page-heading";
import { TextDiffView } from "~/ui/admin/text-diff";
import { ARTICLE_BODY_CLASSES } from "~/ui/article-body";
import { buttonClasses } from "~/ui/button";
import type { TextDiff } from "~/ui/admin/line-diff";
import type { FieldErrors, PostForm } from "~/features/blog/post-fields";
import { TIME_ZONE_COOKIE } from "~/ui/admin/time-zone";

// The post editor's form, shared by "New post" and a post's edit page: every field of a post, the
// body in a code editor beside a live preview rendered by the public renderer on the server, and a
// warning before leaving with unsaved changes. Without JavaScript it is a plain form whose
// "Update preview" button renders the preview on the server.

export type PickableImage = Parameters<typeof MediaPicker>[0]["images"][number];
export type MarkupProblemView = { line: number; message: string };
export type ConflictView = {
  number: number;
  authorEmail: string;
  createdAt: string;
  changes: { field: string; label: string; diff: TextDiff }[];
};

export type PostEditorProps = {
  values: PostForm;
  errors?: FieldErrors;
  markupProblems: MarkupProblemView[];
  previewHtml: string;
  computedReadTime: number;
  categories: string[];
  timeZones: string[];
  /** The media library, to pick the post's image from. */
  images: PickableImage[];
  /** Where the post stands ("new" before its first save): decides the buttons. */
  state: "new" | "draft" | "scheduled" | "published" | "unpublished";
  baseRevision: number;
  conflict?: ConflictView;
  /** What the checks before publishing found: the post was not published. */
  publishChecks?: string[];
  notice?: ReactNode;
  /** A translation's English source, read-only beside its fields. */
  source?: { fields: readonly { label: string; text: string }[] };
};

const field = "mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 aria-invalid:border-red-700";

export function PostEditor(props: PostEditorProps) {
  const { values, errors = {}, state, baseRevision, conflict } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = useUnsavedChanges(formRef, baseRevision);
  const live = useLivePreview(props.previewHtml, props.markupProblems);
  const anyError = Object.values(errors).some(Boolean);
  const libraryUrl = props.images.some((image) => image.url === values.imageUrl) ? values.imageUrl : "";
  const buttons: { intent: string; label: string; variant: "primary" | "secondary" | "danger" }[] =
    state === "published"
      ? [
          { intent: "save", label: "Save changes", variant: "primary" },
          { intent: "unpublish", label: "Unpublish", variant: "danger" },
        ]
      : state === "scheduled"
        ? [
            { intent: "save", label: "Save changes", variant: "primary" },
            { intent: "publish", label: "Publish now", variant: "secondary" },
            { intent: "unpublish", label: "Move to drafts", variant: "danger" },
          ]
        : [
            { intent: "save", label: "Save draft", variant: "secondary" },
            { intent: "publish", label: "Publish now", variant: "primary" },
            { intent: "schedule", label: "Schedule", variant: "secondary" },
          ];

  const fields = (
    <>
      <div className="grid gap-4 rounded-xl border border-slate-200 bg-white p-5 lg:grid-cols-2">
        <TextField
          name="title"
          label="Title"
          value={values.title}
          error={errors.title}
          maxLength={200}
          className="lg:col-span-2"
        />
        <TextField
          name="slug"
          label="Slug"
          value={values.slug}
          error={errors.slug}
          maxLength={120}
          hint="The post's address: /resources/blog/slug. Lowercase words joined by hyphens; made from the title when left empty. A published post's old address keeps working."
        />
        <TextField
          name="category"
          label="Category"
          value={values.category}
          error={errors.category}
          maxLength={60}
          list={props.categories}
        />
        <TextField
          name="excerpt"
          label="Excerpt"
          value={values.excerpt}
          error={errors.excerpt}
          maxLength={500}
          multiline
          className="lg:col-span-2"
        />
        <TextField name="author" label="Author" value={values.author} error={errors.author} maxLength={100} />
        <TextField
          name="readTime"
          label="Read time (minutes)"
          value={values.readTime}
          error={errors.readTime}
          inputMode="numeric"
          hint={`Leave empty to compute it from the body (now ${props.computedReadTime} min).`}
        />
        <TextField
          name="publishedAt"
          label="Publication date"
          type="datetime-local"
          value={values.publishedAt}
          error={errors.publishedAt}
          hint="In the time zone below. Publishing now sets it to the current time; scheduling needs a moment ahead."
        />
        <TimeZoneField value={values.timeZone} zones={props.timeZones} />
        <div className="lg:col-span-2">
          <MediaPicker images={props.images} name="imageUrl" value={libraryUrl} legend="Image" />
          <p className="mt-2 text-sm">
            <a href="#upload-image" className="text-brand-700 underline">
              Upload a new image
            </a>{" "}
            to add it to this list.
          </p>
          <TextField
            name="imageUrlOther"
            label="Or an image address"
            value={libraryUrl ? "" : values.imageUrl}
            error={errors.imageUrl}
            hint="A site path such as /images/photos/x.jpg or an https URL; used instead of the choice above when filled."
            className="mt-3"
          />
        </div>
        <div className="flex items-start gap-2 lg:col-span-2">
          <input id="post-featured" name="featured" type="checkbox" defaultChecked={values.featured} className="mt-1 size-4" />
          <label htmlFor="post-featured" className="text-sm">
            <span className="font-medium">Featured post</span>
            <span className="block text-muted">One post is featured at a time: featuring this one unfeatures the other.</span>
          </label>
        </div>
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <BodyField value={values.content} error={errors.content} onChange={live.update} />
        <section aria-labelledby="live-preview-heading" className="rounded-xl border border-slate-200 bg-white p-5">
          <div className="flex items-center justify-between gap-2">
            <h2 id="live-preview-heading" className="text-lg font-semibold">
              Preview
            </h2>
            <button type="submit" name="intent" value="preview" className={buttonClasses("ghost")}>
              Update preview
            </button>
          </div>
          <MarkupProblems problems={live.problems} />
          <div
            data-testid="live-preview"
            className={`mt-4 max-h-[40rem] overflow-y-auto ${ARTICLE_BODY_CLASSES}`}
            // Trusted: rendered on the server by the public renderer, which escapes text and emits only allow-listed markup.
            dangerouslySetInnerHTML={{ __html: live.html }}
          />
        </section>
      </div>
    </>
  );

  return (
    <>
      <Form method="post" ref={formRef} noValidate className="space-y-6" onSubmit={() => dirty.clear()}>
        <CsrfField />
        <input type="hidden" name="baseRevision" value={baseRevision} />
        {props.notice}
        {conflict ? <ConflictNotice conflict={conflict} /> : null}
        {props.publishChecks?.length ? (
          <Notice tone="error">
            <p className="font-semibold">Nothing was saved: fix these problems before the post goes live.</p>
            <ul className="mt-1 list-disc pl-5">
              {props.publishChecks.map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
          </Notice>
        ) : anyError && !conflict ? (
          <Notice tone="error">Nothing was saved: correct the marked fields.</Notice>
        ) : null}
        {dirty.value ? (
          <p role="status" className="text-sm text-amber-800">
            You have unsaved changes.
          </p>
        ) : null}

        {props.source ? (
          <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <SourceFields fields={props.source.fields} />
            <div className="space-y-6">{fields}</div>
          </div>
        ) : (
          fields
        )}

        <div className="flex flex-wrap gap-3">
          {buttons.map((button) => (
            <button
              key={button.intent}
              type="submit"
              name="intent"
              value={button.intent}
              className={buttonClasses(button.variant)}
            >
              {button.label}
            </button>
          ))}
        </div>
      </Form>
      <UploadOnTheSpot formRef={formRef} />
    </>
  );
}

/**
 * Adding an image to the library without leaving the post: uploaded through the library's own
 * action, then listed in the post's image choice (the page's data reloads) and chosen.
 */
function UploadOnTheSpot({ formRef }: { formRef: React.RefObject<HTMLFormElement | null> }) {
  const fetcher = useFetcher<UploadAnswer>();
  const uploaded = fetcher.data?.uploaded;
  useEffect(() => {
    if (!uploaded || fetcher.state !== "idle") return;
    const choice = formRef.current?.querySelector<HTMLInputElement>(
      `input[name="imageUrl"][value="${CSS.escape(uploaded.url)}"]`,
    );
    if (choice && !choice.checked) {
      choice.checked = true;
      choice.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }, [uploaded, fetcher.state, formRef]);
  return (
    <section
      id="upload-image"
      aria-labelledby="upload-image-heading"
      className="mt-8 rounded-xl border border-slate-200 bg-white p-5"
    >
      <h2 id="upload-image-heading" className="text-lg font-semibold">
        Upload a new image
      </h2>
      <p className="mt-1 text-sm text-muted">It goes to the media library and becomes this post&apos;s image choice.</p>
      {uploaded ? (
        <p role="status" className="mt-2 text-sm text-green-800">
          Uploaded &quot;{uploaded.alt}&quot; and chosen as the post&apos;s image. Save the post to keep the choice.
        </p>
      ) : null}
      <div className="mt-4">
        <ImageUploadForm idPrefix="post-upload" fetcher={fetcher} errors={fetcher.data?.fieldErrors} uploaded={uploaded} />
      </div>
    </section>
  );
}

function TextField(props: {
  name: keyof PostForm | "imageUrlOther";
  label: string;
  value: string;
  error?: string;
  hint?: string;
  maxLength?: number;
  type?: string;
  inputMode?: "numeric";
  multiline?: boolean;
  list?: string[];
  className?: string;
}) {
  const id = `post-${props.name}`;
  const described = [props.error ? `${id}-error` : "", props.hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: props.name,
    defaultValue: props.value,
    maxLength: props.maxLength,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": described,
    className: field,
  };
  return (
    <div className={props.className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={3} />
      ) : (
        <input
          {...common}
          type={props.type ?? "text"}
          inputMode={props.inputMode}
          list={props.list ? `${id}-options` : undefined}
        />
      )}
      {props.list ? (
        <datalist id={`${id}-options`}>
          {props.list.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
      ) : null}
      {props.hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** The zone dates are entered in: the one the server knows for this person, else the browser's. */
function TimeZoneField({ value, zones }: { value: string; zones: string[] }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    // First visit with JavaScript: the server learns the browser's zone (a cookie) and shows the
    // dates again in it; it keeps using it on every later page.
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (document.cookie.includes(`${TIME_ZONE_COOKIE}=`) || !browserZone || !zones.includes(browserZone)) return;
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(browserZone)}; path=/admin; samesite=lax; max-age=31536000`;
    if (browserZone !== value) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div>
      <label htmlFor="post-timeZone" className="block text-sm font-medium">
        Time zone
      </label>
      <select id="post-timeZone" name="timeZone" defaultValue={value} className={field}>
        {zones.map((zone) => (
          <option key={zone}>{zone}</option>
        ))}
      </select>
    </div>
  );
}

function BodyField({ value, error, onChange }: { value: string; error?: string; onChange: (text: string) => void }) {
  const labelId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  useEffect(() => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    let unmount: (() => void) | undefined;
    let cancelled = false;
    void import("~/features/blog/admin/markup-editor.client").then(({ mountMarkupEditor }) => {
      if (cancelled) return;
      unmount = mountMarkupEditor(textarea, {
        labelledBy: labelId,
        describedBy: error ? "post-content-error" : "post-content-hint",
        onChange: (text) => onChangeRef.current(text),
      });
    });
    return () => {
      cancelled = true;
      unmount?.();
    };
    // Mounted once per page: the editor keeps its own text (and undo history) from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div>
      <label id={labelId} htmlFor="post-content" className="block text-sm font-medium">
        Body
      </label>
      <p id="post-content-hint" className="mt-1 text-xs text-muted">
        Post markup: # headings, - lists, [links](https://…), **bold**, _italic_, an image as ![description](URL) on its own line.
      </p>
      <div className="mt-1.5 overflow-hidden rounded-lg border border-slate-300">
        <textarea
          ref={textareaRef}
          id="post-content"
          name="content"
          defaultValue={value}
          rows={24}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "post-content-error" : "post-content-hint"}
          className="block w-full px-3 py-2 font-mono text-sm"
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      </div>
      {error ? (
        <p id="post-content-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function MarkupProblems({ problems }: { problems: MarkupProblemView[] }) {
  if (!problems.length) return null;
  return (
    <div role="alert" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-semibold">This markup would not show as written. Fix it before publishing:</p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((problem, index) => (
          <li key={index}>
            Line {problem.line}: {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ConflictNotice({ conflict }: { conflict: ConflictView }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">
        Not saved: {conflict.authorEmail} saved this post (revision {conflict.number}, {conflict.createdAt}) after you opened it.
      </p>
      <p className="mt-1">
        Your text is kept below. Their changes are shown here; save again to replace their version with yours, or reload to start
        from theirs.
      </p>
      <div className="mt-3">
        {conflict.changes.map((change) => (
          <TextDiffView key={change.field} label={change.label} diff={change.diff} />
        ))}
      </div>
    </div>
  );
}

/**
 * Whether the form differs from what was last loaded or saved; leaving the page then asks first
 * (in-app links through the router, closing or reloading through the browser's own prompt).
 */
function useUnsavedChanges(formRef: React.RefObject<HTMLFormElement | null>, savedRevision: number) {
  const [dirty, setDirty] = useState(false);
  const submitting = useRef(false);
  const navigation = useNavigation();
  // A save that went through (a new revision) leaves nothing unsaved. Before the check below, so
  // that on the first render the check has the last word.
  useEffect(() => {
    setDirty(false);
  }, [savedRevision]);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const mark = () => setDirty(true);
    form.addEventListener("input", mark);
    form.addEventListener("change", mark);
    // Typed before the page's scripts ran (a slow connection): that is unsaved already.
    if (differsFromDefaults(form)) mark();
    return () => {
      form.removeEventListener("input", mark);
      form.removeEventListener("change", mark);
    };
  }, [formRef]);
  useEffect(() => {
    if (navigation.state === "idle") submitting.current = false;
  }, [navigation.state]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !submitting.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm("You have unsaved changes. Leave this page and lose them?")) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  return {
    value: dirty,
    clear: () => {
      submitting.current = true;
    },
  };
}

/** Whether any field of `form` holds something other than what the page was sent with. */
function differsFromDefaults(form: HTMLFormElement): boolean {
  return Array.from(form.elements).some((element) => {
    if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
    if (element instanceof HTMLSelectElement) {
      const options = Array.from(element.options);
      // A select sent without a chosen option shows its first one.
      const sent = Math.max(
        0,
        options.findIndex((option) => option.defaultSelected),
      );
      return element.multiple
        ? options.some((option) => option.selected !== option.defaultSelected)
        : element.selectedIndex !== sent;
    }
    if (!(element instanceof HTMLInputElement) || element.type === "hidden") return false;
    if (element.type === "checkbox" || element.type === "radio") return element.checked !== element.defaultChecked;
    return element.type !== "file" && element.value !== element.defaultValue;
  });
}

/** The preview beside the editor, re-rendered on the server a moment after typing stops. */
function useLivePreview(initialHtml: string, initialProblems: MarkupProblemView[]) {
  const csrf = useCsrfToken();
  const [preview, setPreview] = useState({ html: initialHtml, problems: initialProblems });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  useEffect(() => setPreview({ html: initialHtml, problems: initialProblems }), [initialHtml, initialProblems]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const update = (text: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const request = ++latest.current;
      void fetch("/admin/posts/live-preview", {
        method: "POST",
        body: new URLSearchParams({ csrf, content: text }),
      })
        .then((response) =>
          response.ok ? (response.json() as Promise<{ html: string; problems: MarkupProblemView[] }>) : undefined,
        )
        .then((result) => {
          // Answers can arrive out of order: only the newest text's preview is shown.
          if (result && request === latest.current) setPreview(result);
        })
        .catch(() => undefined);
    }, 400);
  };
  return { ...preview, update };
}
