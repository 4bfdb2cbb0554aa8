import { useEffect, useRef, type ReactNode } from "react";
import { Form } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { buttonClasses } from "~/ui/button";
import {
  EMPLOYMENT_TYPES,
  PAY_PERIODS,
  WORKPLACES,
  employmentTypeLabels,
  payPeriodLabels,
  workplaceLabels,
} from "~/features/careers/positions";
import { POSITION_FORM_FIELDS, positionControlId, type PositionFormValues } from "~/features/careers/position-form";
import { SourceFields } from "~/features/content/admin/translations";

// The position editor's form (recruiters): what the position is, where and how it is done, its
// pay, its text, who hires for it and when it closes. Lists are one entry per line. Every field's
// error is shown under it and named by it; the first one takes focus. A translation's form shows
// its English source, read-only, beside each group of fields.

type Errors = Record<string, string>;

/** The message shown on a control: its own, or one of the schema's keys shown there ("pay.min" on payMin). */
function errorOf(errors: Errors, field: keyof PositionFormValues): string | undefined {
  const keys = Object.keys(errors).filter((key) => positionControlId(key) === positionControlId(field));
  return keys.length ? keys.map((key) => errors[key]).join(" ") : undefined;
}

function Row({
  field,
  label,
  help,
  errors,
  children,
}: {
  field: keyof PositionFormValues;
  label: string;
  help?: string;
  errors: Errors;
  children: (props: Record<string, unknown>) => ReactNode;
}) {
  const id = positionControlId(field);
  const error = errorOf(errors, field);
  const described = [help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {help ? (
        <p id={`${id}-help`} className="text-sm text-muted">
          {help}
        </p>
      ) : null}
      {children({
        id,
        name: field,
        className: fieldClasses,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": described || undefined,
      })}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

type SourceColumn = Record<string, readonly { label: string; text: string }[]>;

function Group({ legend, source, children }: { legend: string; source?: SourceColumn; children: ReactNode }) {
  const fields = source?.[legend];
  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-semibold">{legend}</legend>
      {fields ? (
        <div className="grid gap-4 md:grid-cols-2">
          <SourceFields heading={`English source: ${legend}`} fields={fields} level={2} />
          <div className="space-y-4">{children}</div>
        </div>
      ) : (
        children
      )}
    </fieldset>
  );
}

export function PositionEditor({
  values,
  errors,
  revision,
  teams,
  timeZones,
  notice,
  publishing,
  careersPath = "/company/careers",
  source,
}: {
  values: PositionFormValues;
  errors: Errors;
  revision: number;
  /** The teams other positions name, offered as the team's choices. */
  teams: readonly string[];
  timeZones: readonly string[];
  notice?: ReactNode;
  /** The publishing controls (they submit this form, so what it holds is saved first). */
  publishing: ReactNode;
  /** The careers page of the position's language, which its address is under. */
  careersPath?: string;
  /** A translation's English source, by the form's groups. */
  source?: SourceColumn;
}) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // The first field in error takes focus, in the form's order.
    const first = POSITION_FORM_FIELDS.find((field) => errorOf(errors, field));
    if (first) form.current?.querySelector<HTMLElement>(`#${positionControlId(first)}`)?.focus();
  }, [errors]);
  const text = (field: keyof PositionFormValues, rows?: number) => (props: Record<string, unknown>) =>
    rows ? <textarea {...props} rows={rows} defaultValue={values[field]} /> : <input {...props} defaultValue={values[field]} />;
  const choice = (field: keyof PositionFormValues, options: readonly string[], labels: Record<string, string>) =>
    function Choice(props: Record<string, unknown>) {
      return (
        <select {...props} defaultValue={values[field]} className={`${fieldClasses} w-auto`}>
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      );
    };
  return (
    <Form ref={form} method="post" noValidate className="space-y-6">
      {notice}
      <CsrfField />
      <input type="hidden" name="revision" value={revision} />
      <Group legend="Position" source={source}>
        <Row field="title" label="Title" errors={errors}>
          {text("title")}
        </Row>
        <Row
          field="slug"
          label="Slug"
          help={`Its address: ${careersPath}/ followed by the slug, lower-case words joined by hyphens.`}
          errors={errors}
        >
          {(props) => <input {...props} defaultValue={values.slug} className={`${fieldClasses} font-mono`} />}
        </Row>
        <Row field="team" label="Team" errors={errors}>
          {(props) => (
            <>
              <input {...props} defaultValue={values.team} list="position-teams" />
              <datalist id="position-teams">
                {teams.map((team) => (
                  <option key={team} value={team} />
                ))}
              </datalist>
            </>
          )}
        </Row>
        <Row field="summary" label="Summary" help="One or two sentences for the careers page's list." errors={errors}>
          {text("summary", 2)}
        </Row>
      </Group>
      <Group legend="Where and how" source={source}>
        <Row field="locations" label="Locations" help="One per line, such as Berlin, Germany." errors={errors}>
          {text("locations", 3)}
        </Row>
        <Row field="workplace" label="Workplace" errors={errors}>
          {choice("workplace", WORKPLACES, workplaceLabels)}
        </Row>
        <Row
          field="remoteRegions"
          label="Remote regions"
          help="For remote work: where applicants may live, one per line, such as European Union."
          errors={errors}
        >
          {text("remoteRegions", 2)}
        </Row>
        <Row field="employmentType" label="Employment type" errors={errors}>
          {choice("employmentType", EMPLOYMENT_TYPES, employmentTypeLabels)}
        </Row>
        <fieldset>
          <legend className="text-sm font-medium">Pay range</legend>
          <p className="text-sm text-muted">Shown to applicants, as pay transparency asks. Leave all three empty to show none.</p>
          <div className="mt-2 grid gap-4 sm:grid-cols-4">
            <Row field="payMin" label="Minimum" errors={errors}>
              {(props) => <input {...props} inputMode="numeric" defaultValue={values.payMin} />}
            </Row>
            <Row field="payMax" label="Maximum" errors={errors}>
              {(props) => <input {...props} inputMode="numeric" defaultValue={values.payMax} />}
            </Row>
            <Row field="payCurrency" label="Currency" errors={errors}>
              {(props) => <input {...props} maxLength={3} defaultValue={values.payCurrency} placeholder="EUR" />}
            </Row>
            <Row field="payPeriod" label="Per" errors={errors}>
              {choice(
                "payPeriod",
                PAY_PERIODS,
                Object.fromEntries(PAY_PERIODS.map((period) => [period, payPeriodLabels[period].replace(/^an? /, "")])),
              )}
            </Row>
          </div>
        </fieldset>
      </Group>
      <Group legend="Text" source={source}>
        <Row
          field="description"
          label="Description"
          help="The position's story, in the blog's markup: paragraphs, **bold**, lists, links."
          errors={errors}
        >
          {text("description", 10)}
        </Row>
        <Row field="responsibilities" label="What you will do" help="One per line." errors={errors}>
          {text("responsibilities", 5)}
        </Row>
        <Row field="requirements" label="What you bring" help="One per line." errors={errors}>
          {text("requirements", 5)}
        </Row>
      </Group>
      <Group legend="Hiring" source={source}>
        <Row
          field="hiringContacts"
          label="Hiring contacts"
          help="Email addresses, one per line: they receive this position's applications as well as the careers inbox."
          errors={errors}
        >
          {text("hiringContacts", 3)}
        </Row>
        <Row
          field="closesAt"
          label="Closing date"
          help="Optional. From then on the position is closed by itself."
          errors={errors}
        >
          {(props) => (
            <input {...props} type="datetime-local" defaultValue={values.closesAt} className={`${fieldClasses} w-auto`} />
          )}
        </Row>
        <Row field="timeZone" label="Time zone" help="Of the closing date and of a scheduled publication." errors={errors}>
          {(props) => (
            <select {...props} defaultValue={values.timeZone} className={`${fieldClasses} w-auto`}>
              {timeZones.map((zone) => (
                <option key={zone}>{zone}</option>
              ))}
            </select>
          )}
        </Row>
      </Group>
      {publishing}
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="save" className={buttonClasses()}>
          Save draft
        </button>
      </div>
    </Form>
  );
}
