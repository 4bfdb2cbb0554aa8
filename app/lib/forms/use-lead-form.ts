import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef } from "react";
import { useActionData, useNavigation } from "react-router";
import type { z } from "zod";
import { showOutcomeToast } from "~/components/ui/toast";
import type { FormActionData } from "./outcomes";

/**
 * Everything a lead form needs in the browser: Conform wired to the shared schema (native
 * constraints, so the browser enforces them even without JavaScript), the pending state, and the
 * outcome — a toast for a post made by the hydrated app, an in-page message for the document a
 * post without JavaScript returns.
 */
export function useLeadForm<Schema extends z.ZodObject>(
  schema: Schema,
  {
    id,
    defaultValue,
    toasterId,
    onSuccess,
  }: {
    id: string;
    /** Values a fresh (or reset) form starts with, e.g. the preselected product. */
    defaultValue?: Partial<z.input<Schema>>;
    toasterId?: (data: FormActionData) => string | undefined;
    onSuccess?: () => void;
  },
) {
  const actionData = useActionData<FormActionData>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";

  const [form, fields] = useForm({
    id,
    defaultValue,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    constraint: getZodConstraint(schema),
    // Without JavaScript the browser's own constraint validation (required, type=email...) applies.
    defaultNoValidate: false,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });

  // The answer rendered into the first document is shown in the page; later ones become toasts.
  const initial = useRef(actionData);
  const inlineOutcome = actionData === initial.current ? actionData?.outcome : undefined;
  const handled = useRef(actionData);
  const onSuccessRef = useRef(onSuccess);
  onSuccessRef.current = onSuccess;
  const toasterIdRef = useRef(toasterId);
  toasterIdRef.current = toasterId;

  useEffect(() => {
    if (!actionData || actionData === handled.current) return;
    handled.current = actionData;
    showOutcomeToast(actionData.outcome, toasterIdRef.current?.(actionData));
    if (actionData.outcome.kind === "success") onSuccessRef.current?.();
  }, [actionData]);

  return { form, fields, pending, inlineOutcome };
}
