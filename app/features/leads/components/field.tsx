import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { Button } from "~/ui/button";
import type { Choice } from "~/ui/content-types";
import { useFormText } from "~/features/leads/components/form-texts-context";

// Form primitives: a visible label on every control, the error text beside it, linked by
// aria-describedby and flagged with aria-invalid by Conform.

export type Meta = FieldMetadata<string | number | null | undefined>;

const control =
  "mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-ink shadow-sm " +
  "focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 " +
  "aria-invalid:border-red-700";

type Common = { meta: Meta; label: string; className?: string; autoComplete?: string };

function Frame({ meta, label, className = "", children }: Omit<Common, "autoComplete"> & { children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
        {meta.required ? (
          <span aria-hidden="true" className="text-red-700">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
      {meta.errors?.length ? (
        <p id={meta.errorId} className="mt-1 text-sm text-red-700">
          {meta.errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({
  type = "text",
  autoComplete,
  ...frame
}: Common & { type?: "text" | "email" | "tel" | "url" | "number" }) {
  const { key, ...props } = getInputProps(frame.meta, { type });
  return (
    <Frame {...frame}>
      <input
        key={key}
        {...props}
        autoComplete={autoComplete}
        inputMode={type === "number" ? "numeric" : undefined}
        className={control}
      />
    </Frame>
  );
}

export function TextAreaField({ rows = 5, ...frame }: Omit<Common, "autoComplete"> & { rows?: number }) {
  const { key, ...props } = getTextareaProps(frame.meta);
  return (
    <Frame {...frame}>
      <textarea key={key} {...props} rows={rows} className={control} />
    </Frame>
  );
}

/** A native <select>: works without JavaScript and with every assistive technology. */
export function SelectField({ options, autoComplete, ...frame }: Common & { options: readonly Choice[] }) {
  const { key, ...props } = getSelectProps(frame.meta);
  return (
    <Frame {...frame}>
      <select key={key} {...props} autoComplete={autoComplete} className={control}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

/**
 * The spam trap: people never see or reach it; naive bots fill every input.
 * Off-screen rather than display:none, which many bots skip.
 */
export function Honeypot() {
  const t = useFormText();
  return (
    <div aria-hidden="true" className="absolute top-auto -left-[10000px] h-px w-px overflow-hidden">
      <label>
        {t("form.common.honeypot")}
        <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" aria-hidden="true" />
      </label>
    </div>
  );
}

/** The submit button: disabled and relabelled while the post is in flight. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  className,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
  className?: string;
}) {
  return (
    <Button type="submit" disabled={pending} className={className}>
      {pending ? pendingLabel : label}
    </Button>
  );
}
