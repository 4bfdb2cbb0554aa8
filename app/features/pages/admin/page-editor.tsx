import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { EditButton } from "~/ui/admin/edit-button";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { buttonClasses } from "~/ui/button";
import { SourceFields } from "~/features/content/admin/translations";
import {
  blockPrefix,
  controlId,
  entryMarker,
  fieldName,
  MAX_BLOCKS_BYTES,
  PAGE_FORM_MAX_BYTES,
  type EditorBlockType,
  type EditorField,
} from "~/features/pages/page-form";

// A page's editor: one plain form that works without JavaScript. Every field of the page and of
// its blocks is a control named by its path; the buttons that add, move, duplicate or remove a
// block or a list's entry are submit buttons, answered by the server with the page rearranged and
// saved. With JavaScript the same round trips happen in place (focus follows what moved), blocks
// can be dragged into place, and the preview beside the form follows the typing.

export type PageEditorValues = {
  path: string;
  title: string;
  description: string;
  image?: string;
  canonicalPath?: string;
  noindex: boolean;
  blocks: Record<string, unknown>[];
};

export type PageEditorProps = {
  id: string;
  revision: number;
  values: PageEditorValues;
  blockTypes: readonly EditorBlockType[];
  errors: Record<string, string>;
  /** What stopped publishing, by the block it concerns: shown next to that block. */
  blockNotes?: readonly { block: number; message: string }[];
  /** The control (by name) that takes focus after an editing button. */
  focus?: string;
  /** Something above the form: what just happened. */
  notice?: ReactNode;
  /** The publishing controls, inside the same form (they publish what the form holds). */
  publishing: ReactNode;
  /** A translation's English source, read-only beside its fields, block by block (by position). */
  source?: {
    fields: readonly { label: string; text: string }[];
    blocks: readonly { label: string; fields: readonly { label: string; text: string }[] }[];
  };
};

type Value = unknown;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * A form too large for the server to read (it would answer 413 and the typing would be lost): the
 * field that holds most of it, or the block list when no one field does, and what to say there.
 */
export function oversizedForm(
  form: HTMLFormElement,
  submitter: HTMLElement | null,
): { name: string; message: string } | undefined {
  const body = new FormData(form, submitter);
  let bytes = 0;
  let largest = { name: "blocks", bytes: 0, value: "" };
  for (const [name, value] of body) {
    if (typeof value !== "string") continue;
    // As the browser will send it: urlencoded, each pair joined by "&".
    const size = new URLSearchParams([[name, value]]).toString().length + 1;
    bytes += size;
    if (size > largest.bytes) largest = { name, bytes: size, value };
  }
  if (bytes <= PAGE_FORM_MAX_BYTES) return undefined;
  const limit = `a page's blocks take at most ${MAX_BLOCKS_BYTES / 1024} KB`;
  return largest.bytes > PAGE_FORM_MAX_BYTES / 2
    ? {
        name: largest.name,
        message: `This field holds ${megabytes(new TextEncoder().encode(largest.value).length)}: ${limit}. Nothing was sent.`,
      }
    : { name: "blocks", message: `The blocks hold ${megabytes(bytes)}: ${limit}. Nothing was sent.` };
}

function errorsUnder(errors: Record<string, string>, prefix: string): number {
  return Object.keys(errors).filter((name) => name === prefix || name.startsWith(`${prefix}.`)).length;
}

export function PageEditor({
  id,
  revision,
  values,
  blockTypes,
  errors: serverErrors,
  blockNotes = [],
  focus,
  notice,
  publishing,
  source,
}: PageEditorProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useNavigation().state === "submitting";
  const typeOf = new Map(blockTypes.map((type) => [type.type, type]));
  useEffect(() => {
    if (!focus) return;
    const target = document.getElementById(controlId(focus));
    target?.focus();
  }, [focus]);
  const [dragged, setDragged] = useState<number | null>(null);
  // Refused here, not by the server: a form over its cap would be answered 413, the typing lost.
  const [oversized, setOversized] = useState<{ name: string; message: string }>();
  useEffect(() => {
    if (oversized) document.getElementById(controlId(oversized.name))?.focus();
  }, [oversized]);
  const errors = oversized ? { ...serverErrors, [oversized.name]: oversized.message } : serverErrors;

  const addressFields = (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-semibold">Address and search</legend>
      <TextControl
        name="path"
        label="Address"
        value={values.path}
        errors={errors}
        mono
        help="Such as /solutions/financial-services."
      />
      <TextControl
        name="title"
        label="Title"
        value={values.title}
        errors={errors}
        help="The browser tab's and search results' title."
      />
      <TextControl
        name="description"
        label="Description"
        value={values.description}
        errors={errors}
        multiline
        help="Shown under the title in search results and social cards."
      />
      <TextControl
        name="image"
        label="Social image"
        value={values.image}
        errors={errors}
        mono
        help="A path of this site (/media/…), drawn under the page's card; or an https:// address, shared instead of the card."
      />
      <TextControl
        name="canonicalPath"
        label="Canonical path"
        value={values.canonicalPath}
        errors={errors}
        mono
        help="Another page this one copies, for search engines; empty for its own address."
      />
      <div className="flex items-center gap-2">
        <input id={controlId("noindex")} type="checkbox" name="noindex" defaultChecked={values.noindex} className="size-4" />
        <label htmlFor={controlId("noindex")} className="text-sm font-medium">
          Hide from search engines and the sitemap
        </label>
      </div>
    </fieldset>
  );

  return (
    <Form
      method="post"
      ref={formRef}
      noValidate
      aria-label="Page"
      className="space-y-6"
      data-page-editor={id}
      onSubmit={(event) => {
        const refused = oversizedForm(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
        setOversized(refused);
        if (refused) event.preventDefault();
      }}
    >
      <CsrfField />
      <input type="hidden" name="revision" value={revision} />
      {/* First in the form: Enter in a field saves, rather than pressing an editing button. */}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" name="intent" value="save" disabled={busy} className={buttonClasses()}>
          Save draft
        </button>
        <p className="text-sm text-muted">Saving never changes what visitors see: publishing does.</p>
      </div>
      {notice}
      {Object.keys(errors).length ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          Nothing was saved: {Object.keys(errors).length === 1 ? "one field needs" : `${Object.keys(errors).length} fields need`}{" "}
          attention (marked below).
        </div>
      ) : null}

      {source ? (
        <div className="grid gap-4 md:grid-cols-2">
          <SourceFields fields={source.fields} />
          {addressFields}
        </div>
      ) : (
        addressFields
      )}

      <section aria-labelledby={controlId("blocks")} className="space-y-4">
        <h2 id={controlId("blocks")} tabIndex={-1} className="text-lg font-semibold">
          Blocks
        </h2>
        <FieldError id={`${controlId("blocks")}-error`} message={errors.blocks} />
        <ol className="space-y-4">
          {values.blocks.map((block, index) => {
            const prefix = blockPrefix(index);
            const type = typeOf.get(String(block.type));
            const label = `Block ${index + 1}: ${type?.label ?? String(block.type)}`;
            const problems = errorsUnder(errors, prefix);
            return (
              <li
                key={`${index}-${String(block.type)}`}
                onDragOver={(event) => {
                  if (dragged !== null) event.preventDefault();
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  if (dragged === null || dragged === index) return;
                  const form = formRef.current!;
                  const to = form.elements.namedItem("moveTo") as HTMLInputElement;
                  to.value = String(index);
                  const button = form.querySelector<HTMLButtonElement>(`button[value="block-move:${blockPrefix(dragged)}"]`);
                  setDragged(null);
                  form.requestSubmit(button);
                }}
                className={`rounded-xl border bg-white p-5 ${dragged === index ? "border-brand-600 opacity-60" : "border-slate-200"} ${source ? "grid gap-4 md:grid-cols-2" : ""}`}
              >
                {source ? (
                  source.blocks[index] ? (
                    <SourceFields
                      heading={`English source: ${source.blocks[index]!.label}`}
                      fields={source.blocks[index]!.fields}
                    />
                  ) : (
                    <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-muted">
                      The English source has no block at this place.
                    </p>
                  )
                ) : null}
                <section
                  aria-labelledby={`${controlId(prefix)}-heading`}
                  id={controlId(prefix)}
                  tabIndex={-1}
                  className="space-y-4 outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 id={`${controlId(prefix)}-heading`} className="font-semibold">
                      <span
                        draggable
                        onDragStart={(event) => {
                          event.dataTransfer.effectAllowed = "move";
                          event.dataTransfer.setData("text/plain", String(index));
                          setDragged(index);
                        }}
                        onDragEnd={() => setDragged(null)}
                        className="mr-2 cursor-grab text-muted select-none"
                        aria-hidden="true"
                        title="Drag to move"
                      >
                        ⠿
                      </span>
                      {label}
                      {problems ? <span className="ml-2 text-sm font-normal text-red-700">({problems} to fix)</span> : null}
                    </h3>
                    <div className="flex flex-wrap gap-2">
                      <EditButton value={`block-up:${prefix}`} disabled={busy || index === 0} what={`block ${index + 1}`}>
                        Move up
                      </EditButton>
                      <EditButton
                        value={`block-down:${prefix}`}
                        disabled={busy || index === values.blocks.length - 1}
                        what={`block ${index + 1}`}
                      >
                        Move down
                      </EditButton>
                      <EditButton value={`block-duplicate:${prefix}`} disabled={busy} what={`block ${index + 1}`}>
                        Duplicate
                      </EditButton>
                      <EditButton value={`block-remove:${prefix}`} disabled={busy} what={`block ${index + 1}`} danger>
                        Remove
                      </EditButton>
                      {/* Dragging a block submits this, with the place it was dropped on. */}
                      <button type="submit" name="intent" value={`block-move:${prefix}`} hidden tabIndex={-1}>
                        Move block {index + 1}
                      </button>
                    </div>
                  </div>
                  {type?.description ? <p className="text-sm text-muted">{type.description}</p> : null}
                  {blockNotes.some((note) => note.block === index) ? (
                    <ul className="list-disc space-y-1 rounded-lg border border-red-200 bg-red-50 py-2 pr-3 pl-8 text-sm text-red-900">
                      {blockNotes
                        .filter((note) => note.block === index)
                        .map((note, position) => (
                          <li key={position}>{note.message}</li>
                        ))}
                    </ul>
                  ) : null}
                  <input type="hidden" name={`${prefix}.type`} value={String(block.type)} />
                  <FieldError id={`${controlId(`${prefix}.type`)}-error`} message={errors[`${prefix}.type`]} />
                  {type && type.fields.length === 0 ? <p className="text-sm">This block has nothing to fill in.</p> : null}
                  {type?.fields.map((field) => (
                    <FieldControl
                      key={field.name}
                      field={field}
                      prefix={prefix}
                      value={block[field.name]}
                      errors={errors}
                      busy={busy}
                    />
                  ))}
                </section>
              </li>
            );
          })}
        </ol>
        <input type="hidden" name="moveTo" defaultValue="" />
        <div className="flex flex-wrap items-end gap-3 rounded-xl border border-dashed border-slate-300 p-4">
          <div>
            <label htmlFor={controlId("newBlockType")} className="text-sm font-medium">
              Type of block
            </label>
            <select id={controlId("newBlockType")} name="newBlockType" className={`${fieldClasses} w-auto`} defaultValue="">
              <option value="">Choose…</option>
              {blockTypes.map((type) => (
                <option key={type.type} value={type.type}>
                  {type.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" name="intent" value="block-add" disabled={busy} className={buttonClasses("secondary")}>
            Add block
          </button>
        </div>
      </section>
      {publishing}
    </Form>
  );
}

/** A control's label, help line and error message around it (the control names them as its description). */
function ControlRow({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {help ? (
        <p id={`${id}-help`} className="text-xs text-muted">
          {help}
        </p>
      ) : null}
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function TextControl({
  name,
  label,
  value,
  errors,
  help,
  mono,
  multiline,
  rows = 3,
  max,
}: {
  name: string;
  label: string;
  value: Value;
  errors: Record<string, string>;
  help?: string;
  mono?: boolean;
  multiline?: boolean;
  rows?: number;
  max?: number;
}) {
  const id = controlId(name);
  const error = errors[name];
  const described = [help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    defaultValue: typeof value === "string" || typeof value === "number" ? String(value) : "",
    "aria-invalid": error ? (true as const) : undefined,
    "aria-describedby": described,
    maxLength: max ? max * 2 : undefined,
    className: `${fieldClasses} ${mono ? "font-mono text-sm" : ""}`,
  };
  return (
    <ControlRow id={id} label={label} help={help} error={error}>
      {multiline ? <textarea {...common} rows={rows} /> : <input {...common} />}
    </ControlRow>
  );
}

function SelectControl({
  name,
  label,
  value,
  options,
  errors,
  help,
  allowEmpty,
}: {
  name: string;
  label: string;
  value: Value;
  options: readonly { value: string; label: string }[];
  errors: Record<string, string>;
  help?: string;
  allowEmpty: boolean;
}) {
  const id = controlId(name);
  const error = errors[name];
  return (
    <ControlRow id={id} label={label} help={help} error={error}>
      <select
        id={id}
        name={name}
        defaultValue={value === undefined || value === null ? "" : String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : help ? `${id}-help` : undefined}
        className={`${fieldClasses} w-auto`}
      >
        {allowEmpty ? <option value="">None</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </ControlRow>
  );
}

/** One editor field of a block, by its kind; groups and lists hold fields of their own. */
function FieldControl({
  field,
  prefix,
  value,
  errors,
  busy,
}: {
  field: EditorField;
  prefix: string;
  value: Value;
  errors: Record<string, string>;
  busy: boolean;
}) {
  const name = fieldName(prefix, field.name);
  const label = field.required ? field.label : `${field.label} (optional)`;
  switch (field.kind) {
    case "select":
    case "icon":
      return (
        <SelectControl
          name={name}
          label={label}
          value={value}
          options={field.options ?? []}
          errors={errors}
          help={field.help}
          allowEmpty={!field.required && field.kind === "icon"}
        />
      );
    case "checkbox":
      return (
        <div className="flex items-center gap-2">
          <input id={controlId(name)} type="checkbox" name={name} defaultChecked={value === true} className="size-4" />
          <label htmlFor={controlId(name)} className="text-sm font-medium">
            {field.label}
          </label>
        </div>
      );
    case "textarea":
    case "markup":
    case "code":
      return (
        <TextControl
          name={name}
          label={label}
          value={value}
          errors={errors}
          help={
            field.kind === "markup"
              ? `${field.help ? `${field.help} ` : ""}Markup: **bold**, *italic*, [a link](/path).`
              : field.help
          }
          multiline
          mono={field.kind === "code"}
          rows={field.kind === "code" ? 8 : 3}
          max={field.max}
        />
      );
    case "image": {
      const image = (value ?? {}) as Record<string, Value>;
      return (
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold">{label}</legend>
          {field.help ? <p className="text-xs text-muted">{field.help}</p> : null}
          <FieldError id={`${controlId(name)}-error`} message={errors[name]} />
          <TextControl name={`${name}.src`} label="Image address" value={image.src} errors={errors} mono />
          <TextControl name={`${name}.alt`} label="Alt text" value={image.alt} errors={errors} />
          <div className="grid gap-3 sm:grid-cols-2">
            <TextControl name={`${name}.width`} label="Width (pixels)" value={image.width} errors={errors} />
            <TextControl name={`${name}.height`} label="Height (pixels)" value={image.height} errors={errors} />
          </div>
        </fieldset>
      );
    }
    case "group": {
      const group = (value ?? {}) as Record<string, Value>;
      return (
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold">{label}</legend>
          {field.help ? <p className="text-xs text-muted">{field.help}</p> : null}
          <FieldError id={`${controlId(name)}-error`} message={errors[name]} />
          {(field.fields ?? []).map((child) => (
            <FieldControl key={child.name} field={child} prefix={name} value={group[child.name]} errors={errors} busy={busy} />
          ))}
        </fieldset>
      );
    }
    case "list": {
      const entries = Array.isArray(value) ? value : [];
      const fields = field.fields ?? [];
      const plain = fields.length === 1 && fields[0]!.name === "";
      return (
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
          <legend id={controlId(name)} tabIndex={-1} className="px-1 text-sm font-semibold">
            {field.label}
          </legend>
          <FieldError id={`${controlId(name)}-error`} message={errors[name]} />
          <ol className="space-y-3">
            {entries.map((entry, index) => {
              const entryName = `${name}.${index}`;
              const what = `${field.label.toLowerCase()} entry ${index + 1}`;
              return (
                <li key={index} id={controlId(entryName)} tabIndex={-1} className="space-y-3 rounded-md bg-slate-50 p-3">
                  <input type="hidden" name={entryMarker(entryName)} value="1" />
                  <p className="text-xs font-semibold tracking-wide text-muted uppercase">
                    {field.label}: {index + 1}
                  </p>
                  {plain ? (
                    <TextControl name={entryName} label={`${fields[0]!.label} ${index + 1}`} value={entry} errors={errors} />
                  ) : (
                    fields.map((child) => (
                      <FieldControl
                        key={child.name}
                        field={child}
                        prefix={entryName}
                        value={(entry as Record<string, Value> | null)?.[child.name]}
                        errors={errors}
                        busy={busy}
                      />
                    ))
                  )}
                  <div className="flex flex-wrap gap-2">
                    <EditButton value={`entry-up:${entryName}`} disabled={busy || index === 0} what={what}>
                      Move up
                    </EditButton>
                    <EditButton value={`entry-down:${entryName}`} disabled={busy || index === entries.length - 1} what={what}>
                      Move down
                    </EditButton>
                    <EditButton value={`entry-remove:${entryName}`} disabled={busy} what={what} danger>
                      Remove
                    </EditButton>
                  </div>
                </li>
              );
            })}
          </ol>
          <EditButton
            value={`entry-add:${name}`}
            disabled={busy || entries.length >= (field.max ?? 50)}
            what={`to ${field.label.toLowerCase()}`}
          >
            Add
          </EditButton>
        </fieldset>
      );
    }
    default:
      return (
        <TextControl
          name={name}
          label={label}
          value={value}
          errors={errors}
          help={field.help}
          mono={field.kind === "link"}
          max={field.max}
        />
      );
  }
}
