import { TextField, type Meta } from "~/features/leads/components/field";

/** Who is asking: the four fields the contact and demo forms share, labelled as the pages word them. */
export function BusinessContactFields({ fields }: { fields: { first_name: Meta; last_name: Meta; email: Meta; company: Meta } }) {
  return (
    <>
      <TextField meta={fields.first_name} label="First Name" autoComplete="given-name" />
      <TextField meta={fields.last_name} label="Last Name" autoComplete="family-name" />
      <TextField meta={fields.email} label="Business Email" type="email" autoComplete="email" />
      <TextField meta={fields.company} label="Company" autoComplete="organization" />
    </>
  );
}
