import { useForm, type DefaultValue } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef } from "react";
import { useActionData, useNavigation } from "react-router";
import { z } from "zod";
import { showOutcomeToast } from "~/features/leads/components/toast";
import type { FormActionData } from "~/features/leads/forms/outcomes";
import { leadFormSchemas, type LeadFormSchemas } from "~/features/leads/forms/form-schemas";
import { useFormText } from "~/features/leads/components/form-texts-context";
import type { LeadFormId } from "~/features/leads/registry";

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

  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    defaultValue: defaultValue as DefaultValue<z.input<Schema>>,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    constraint: constraintsOf(schema),
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

/** The form's schema with the page's messages (FormTextsProvider), so the browser refuses in the page's language. */
export function useLeadFormSchema<F extends LeadFormId>(form: F): LeadFormSchemas[F] {
  const t = useFormText();
  return useMemo(() => leadFormSchemas(t)[form], [t, form]);
}

/**
 * Conform's constraints plus the length caps and number bounds it cannot see through our
 * optional/transform wrappers, so the browser enforces maxlength, min and max natively too.
 */
export function constraintsOf(schema: z.ZodObject) {
  const constraints = getZodConstraint(schema);
  for (const [name, type] of Object.entries(schema.shape)) {
    const inner = unwrap(type as z.ZodType);
    const constraint = (constraints[name] ??= {});
    // Strings and string formats (email, url) all expose their cap as maxLength.
    const maxLength = (inner as { maxLength?: unknown }).maxLength;
    if (typeof maxLength === "number") constraint.maxLength = maxLength;
    if (inner instanceof z.ZodNumber) {
      if (inner.minValue !== null && Number.isFinite(inner.minValue)) constraint.min = inner.minValue;
      if (inner.maxValue !== null && Number.isFinite(inner.maxValue)) constraint.max = inner.maxValue;
      if (inner.isInt) constraint.step = 1;
    }
  }
  return constraints;
}

function unwrap(type: z.ZodType): z.ZodType {
  let current = type;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}
