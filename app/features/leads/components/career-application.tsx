import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { SelectField, TextAreaField, TextField } from "~/features/leads/components/field";
import { LeadForm } from "~/features/leads/components/lead-form";
import { FormToaster, OutcomeMessage } from "~/features/leads/components/toast";
import { useLeadForm, useLeadFormSchema } from "~/features/leads/components/use-lead-form";
import { buttonClasses } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { workStyleChoices } from "~/features/leads/lead-forms";
import { translatorOf, type FormTexts } from "~/features/leads/forms/form-texts";
import { FormTextsProvider, useFormText } from "~/features/leads/components/form-texts-context";

/**
 * The position an application is for, carried in the hidden field `position`; named in the
 * heading while it is open (a closed one's application is kept as an open application).
 */
export type ApplicationPosition = { id: string; title: string; open: boolean };

/** Failure toasts must show inside the modal: everything outside it is inert while it is open. */
const DIALOG_TOASTER = "career-dialog";

/**
 * The application in the page's language: `texts` are the form's texts its page's loader sends
 * (applicationTexts in ~/features/leads/forms/form-texts.server).
 */
export function CareerApplication({ texts, position }: { texts: FormTexts; position?: ApplicationPosition }) {
  const t = useMemo(() => translatorOf(texts), [texts]);
  return (
    <FormTextsProvider value={t}>
      <ApplicationDialog position={position} />
    </FormTextsProvider>
  );
}

/**
 * The "Join Our Team" application. One native <dialog> serves both cases: without JavaScript the
 * server renders it open in place when the URL has ?apply=1 (the Apply Now link); with JavaScript
 * the same URL opens it with showModal() — focus trapped, Escape closes, focus returns to the
 * link — and closing it drops ?apply=1 from the URL.
 */
function ApplicationDialog({ position }: { position?: ApplicationPosition }) {
  const t = useFormText();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("apply") === "1";
  const dialog = useRef<HTMLDialogElement>(null);

  const { form, fields, pending, inlineOutcome } = useLeadForm(useLeadFormSchema("career-application"), {
    id: "career-application",
    toasterId: (data) => (data.outcome.kind === "success" ? undefined : DIALOG_TOASTER),
    onSuccess: () => dialog.current?.close(),
  });
  const succeededInPage = inlineOutcome?.kind === "success";
  // The server decides once whether the form starts open in place; afterwards only the effect below opens or closes it.
  const [openInPlace] = useState(requested && !succeededInPage);

  const skipFirstOpen = useRef(succeededInPage);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!requested) {
      if (element.open) element.close();
      return;
    }
    if (skipFirstOpen.current) {
      skipFirstOpen.current = false;
      return;
    }
    if (element.matches(":modal")) return;
    // Rendered in place by the server: reopened as a modal. The page hydrates at the visitor's first
    // input, often a tap into this form, so whatever they are typing in keeps the focus.
    const typingIn = element.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    if (element.open) element.close();
    element.showModal();
    typingIn?.focus();
  }, [requested]);

  // Closing drops ?apply=1 from the URL, once the router is idle: navigating while the post's
  // revalidation is still loading would abort it.
  const navigation = useNavigation();
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (!closed || navigation.state !== "idle") return;
    setClosed(false);
    if (searchParams.get("apply") === null) return;
    const next = new URLSearchParams(searchParams);
    next.delete("apply");
    setSearchParams(next, { replace: true, preventScrollReset: true });
  }, [closed, navigation.state, searchParams, setSearchParams]);
  const onClose = () => {
    // The close event is async: when the server-rendered dialog was just reopened as a modal, it is open again.
    if (!dialog.current?.open) setClosed(true);
  };
  // With JavaScript the close buttons close the modal; without it, method="dialog" does the same.
  const close = (event: MouseEvent) => {
    event.preventDefault();
    dialog.current?.close();
  };

  return (
    <div className="text-base text-ink">
      <FormToaster />
      {succeededInPage && inlineOutcome ? (
        <div className="mt-6">
          <OutcomeMessage outcome={inlineOutcome} />
        </div>
      ) : null}
      <dialog
        ref={dialog}
        id="apply"
        open={openInPlace}
        onClose={onClose}
        aria-labelledby="join-our-team"
        className={
          "w-full max-w-3xl rounded-2xl border border-slate-200 bg-white p-0 text-ink shadow-xl backdrop:bg-slate-900/60 " +
          "[&:modal]:m-auto [&:modal]:max-h-[calc(100vh-2rem)] [&:modal]:w-[calc(100%-2rem)] " +
          "[&:not(:modal)]:static [&:not(:modal)]:mt-8"
        }
      >
        <FormToaster id={DIALOG_TOASTER} label={t("form.careerApplication.notifications")} />
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
          <div>
            <h2 id="join-our-team" className="text-2xl font-bold tracking-tight">
              {position?.open
                ? t("form.careerApplication.applyFor", { title: position.title })
                : t("form.careerApplication.heading")}
            </h2>
            {position && !position.open ? (
              <p className="mt-1 text-sm text-muted">
                {position.title
                  ? t("form.careerApplication.positionClosedNamed", { title: position.title })
                  : t("form.careerApplication.positionClosed")}
              </p>
            ) : null}
            <p className="mt-1 text-sm text-muted">{t("form.careerApplication.intro")}</p>
          </div>
          <form method="dialog">
            <button
              type="submit"
              formNoValidate
              onClick={close}
              aria-label={t("form.careerApplication.close")}
              className="rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <Icon name="x" className="size-5" />
            </button>
          </form>
        </div>
        <div className="px-6 py-6">
          <LeadForm
            form={form}
            labelledBy="join-our-team"
            inlineOutcome={succeededInPage ? undefined : inlineOutcome}
            pending={pending}
            submitLabel={t("form.careerApplication.submit")}
            pendingLabel={t("form.careerApplication.pending")}
            actions={
              <button type="submit" formMethod="dialog" formNoValidate onClick={close} className={buttonClasses("secondary")}>
                {t("form.careerApplication.cancel")}
              </button>
            }
          >
            {position ? <input type="hidden" name="position" value={position.id} /> : null}
            <TextField meta={fields.first_name} label={t("form.common.firstName")} autoComplete="given-name" />
            <TextField meta={fields.last_name} label={t("form.common.lastName")} autoComplete="family-name" />
            <TextField meta={fields.email} label={t("form.careerApplication.email")} type="email" autoComplete="email" />
            <TextField meta={fields.phone} label={t("form.careerApplication.phone")} type="tel" autoComplete="tel" />
            <TextField
              meta={fields.linkedin_profile}
              label={t("form.careerApplication.linkedin")}
              type="url"
              autoComplete="url"
            />
            <TextField meta={fields.years_experience} label={t("form.careerApplication.yearsExperience")} type="number" />
            <TextField
              meta={fields.current_position}
              label={t("form.careerApplication.currentPosition")}
              autoComplete="organization-title"
            />
            <SelectField meta={fields.work_style} label={t("form.careerApplication.workStyle")} options={workStyleChoices(t)} />
            <TextAreaField
              meta={fields.why_quorvant}
              label={t("form.careerApplication.why")}
              rows={4}
              className="sm:col-span-2"
            />
            <TextAreaField
              meta={fields.biggest_achievement}
              label={t("form.careerApplication.achievement")}
              rows={4}
              className="sm:col-span-2"
            />
            <TextField meta={fields.resume_url} label={t("form.careerApplication.resume")} type="url" className="sm:col-span-2" />
          </LeadForm>
        </div>
      </dialog>
    </div>
  );
}
