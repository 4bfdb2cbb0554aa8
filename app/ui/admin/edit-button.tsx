import type { ReactNode } from "react";

// A small submit button of a form that rearranges itself (move up, add, remove); its accessible
// name says what it acts on ("Move up link 2 in Column 1: Company").

const smallButton =
  "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";

export function EditButton({
  value,
  disabled,
  what,
  in: where,
  danger,
  children,
}: {
  /** The form's intent. */
  value: string;
  disabled: boolean;
  what: string;
  in?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      name="intent"
      value={value}
      disabled={disabled}
      className={`${smallButton} ${danger ? "text-red-700" : ""}`}
    >
      {children}
      <span className="sr-only">
        {" "}
        {what}
        {where ? ` in ${where}` : ""}
      </span>
    </button>
  );
}
