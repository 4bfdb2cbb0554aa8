import { useEffect, useState } from "react";
import type { Toaster as SonnerToaster } from "sonner";
import type { Outcome } from "~/features/leads/forms/outcomes";
import { Icon } from "~/ui/icon";
import { useFormText } from "~/features/leads/components/form-texts-context";

// Toasts for form outcomes. Each toast is its own live region: role="status" for a success,
// role="alert" for a failure (shown in the destructive style). Mounted only by the form pages, so
// other pages never load the toast library.
//
// The library (about two fifths of the form code) shows only what a post answered, so it is not
// part of the page's first scripts: the toaster is imported once the page has hydrated, in a task
// of its own, long before a post made from the page can answer.

const sonner = () => import("sonner");

export function FormToaster({ id, label }: { id?: string; label?: string }) {
  const t = useFormText();
  const [Toaster, setToaster] = useState<typeof SonnerToaster>();
  useEffect(() => {
    void sonner().then((library) => setToaster(() => library.Toaster));
  }, []);
  return Toaster ? (
    <Toaster id={id} containerAriaLabel={label ?? t("form.common.notifications")} position="top-center" duration={8000} />
  ) : null;
}

export function showOutcomeToast(outcome: Outcome, toasterId?: string) {
  void sonner().then(({ toast }) => toast.custom(() => <OutcomeMessage outcome={outcome} variant="toast" />, { toasterId }));
}

const styles = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-950",
  failure: "border-red-300 bg-red-50 text-red-950",
};

/** The outcome as a toast, or (after a post without JavaScript) as a message in the page. */
export function OutcomeMessage({ outcome, variant = "inline" }: { outcome: Outcome; variant?: "toast" | "inline" }) {
  return (
    <div
      role={outcome.kind === "success" ? "status" : "alert"}
      className={`flex gap-3 rounded-xl border p-4 ${styles[outcome.kind]} ${variant === "toast" ? "w-[356px] max-w-[calc(100vw-2rem)] shadow-lg" : ""}`}
    >
      <Icon name={outcome.kind === "success" ? "circle-check" : "circle-alert"} className="mt-0.5 size-5 shrink-0" />
      <div>
        <p className="font-semibold">{outcome.title}</p>
        <p className="mt-0.5 text-sm">{outcome.description}</p>
      </div>
    </div>
  );
}
