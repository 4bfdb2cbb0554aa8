/**
 * One checkbox per language, in a fieldset, each named in its own language: the languages a person
 * may edit (their page, their invitation). `checked` are ticked at first; `hint` says what the
 * choice means, `error` why it was refused.
 */
export function LanguageCheckboxes({
  id,
  name,
  legend,
  languages,
  checked = [],
  hint,
  error,
}: {
  id: string;
  name: string;
  legend: string;
  languages: readonly { tag: string; name: string }[];
  checked?: readonly string[];
  hint?: string;
  error?: string;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <fieldset aria-describedby={describedBy || undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-4">
        {languages.map((language) => (
          <label key={language.tag} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={language.tag}
              defaultChecked={checked.includes(language.tag)}
              className="size-4"
            />
            <span lang={language.tag}>{language.name}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
