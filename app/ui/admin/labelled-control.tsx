import type { ReactNode } from "react";

/** A back-office text control's look. */
export const fieldClasses =
  "mt-1.5 block w-full max-w-xl rounded-lg border border-slate-300 px-3 py-2 aria-invalid:border-red-700";

/** A control's error message, which the control names as its description. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** What a form control needs to be tied to its label and to its error message. */
export type ControlProps = { id: string; className: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A back-office form row: the label, the control `children` draws with the props it is handed,
 * and the control's error message, which the control then names as its description.
 */
export function LabelledControl({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        className: fieldClasses,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? errorId : undefined,
      })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
