import type { ReactNode } from "react";
import { FieldError, fieldClasses } from "~/components/admin/image-upload-form";

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
