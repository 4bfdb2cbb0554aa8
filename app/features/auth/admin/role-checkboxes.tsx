import { ROLES, roleDescriptions } from "~/config/roles";

/** One checkbox per role, in a fieldset; `checked` are ticked at first. */
export function RoleCheckboxes({
  name,
  legend,
  checked = [],
  error,
}: {
  name: string;
  legend: string;
  checked?: readonly string[];
  error?: string;
}) {
  return (
    <fieldset aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {ROLES.map((role) => (
          <label key={role} className="flex items-start gap-2 text-sm">
            <input type="checkbox" name={name} value={role} defaultChecked={checked.includes(role)} className="mt-1 size-4" />
            <span>
              <span className="font-medium">{roleDescriptions[role].label}</span>
              <span className="block text-muted">{roleDescriptions[role].description}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
