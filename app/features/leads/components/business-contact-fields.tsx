import { TextField, type Meta } from "~/features/leads/components/field";
import { useFormText } from "~/features/leads/components/form-texts-context";

/** Who is asking: the four fields the contact and demo forms share, labelled as the pages word them. */
export function BusinessContactFields({ fields }: { fields: { first_name: Meta; last_name: Meta; email: Meta; company: Meta } }) {
  const t = useFormText();
  return (
    <>
      <TextField meta={fields.first_name} label={t("form.common.firstName")} autoComplete="given-name" />
      <TextField meta={fields.last_name} label={t("form.common.lastName")} autoComplete="family-name" />
      <TextField meta={fields.email} label={t("form.common.businessEmail")} type="email" autoComplete="email" />
      <TextField meta={fields.company} label={t("form.common.company")} autoComplete="organization" />
    </>
  );
}
