import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { EditButton } from "~/ui/admin/edit-button";
import { FieldError, LabelledControl } from "~/ui/admin/labelled-control";
import { buttonClasses } from "~/ui/button";
import { fieldNames, type MenuDraft, type MenuErrors } from "~/features/navigation/menu-form";
import { MENUS, NAV_LIMITS, type MenuKey } from "~/features/navigation/navigation";

// One menu's editor: a plain form that works without JavaScript. Adding, moving and removing links
// and groups are submit buttons too: the server answers with the rearranged form (nothing is saved
// until "Save"). With JavaScript the same round trip happens in place and focus follows the field
// that moved.

const inputClasses =
  "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm aria-invalid:border-red-700 focus-visible:outline-2 focus-visible:outline-brand-600";

export type MenuEditorProps = {
  menu: MenuKey;
  draft: MenuDraft;
  errors: MenuErrors;
  revision: number;
  /** The field (by name) that gets focus after a rearranging button (with JavaScript). */
  focus?: string;
  /** The form holds changes not saved yet. */
  unsaved?: boolean;
  /** The language of the menus (a site in several): sent with every button of the form. */
  locale?: string;
};

export function MenuEditor({ menu, draft, errors, revision, focus, unsaved, locale }: MenuEditorProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useNavigation().state === "submitting";
  const { grouped, itemName, maxGroups, maxLinks } = MENUS[menu];
  const idOf = (name: string) => `${menu}-${name}`;
  useEffect(() => {
    if (focus) formRef.current?.querySelector<HTMLInputElement>(`#${idOf(focus)}`)?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus]);
  const Item = itemName.charAt(0).toUpperCase() + itemName.slice(1);

  return (
    <Form method="post" ref={formRef} noValidate aria-label={MENUS[menu].name} className="space-y-4">
      <CsrfField />
      <input type="hidden" name="menu" value={menu} />
      <input type="hidden" name="revision" value={revision} />
      {locale ? <input type="hidden" name="locale" value={locale} /> : null}
      {/* First in the form: Enter in a field saves, rather than pressing a rearranging button. */}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" name="intent" value="save" disabled={busy} className={buttonClasses()}>
          Save<span className="sr-only"> {MENUS[menu].name.toLowerCase()}</span>
        </button>
        {unsaved ? (
          <p className="text-sm font-medium text-amber-800">Not saved yet: visitors see these changes once you save.</p>
        ) : null}
      </div>
      <FieldError id={idOf(fieldNames.menu)} message={errors[fieldNames.menu]} />

      <ol className="space-y-4">
        {draft.map((group, g) => {
          const title = grouped ? `${Item} ${g + 1}${group.label.trim() ? `: ${group.label.trim()}` : ""}` : "Links";
          return (
            <li key={g} className="rounded-lg border border-slate-200 p-4">
              <fieldset className="space-y-3">
                <legend className="text-sm font-semibold">{title}</legend>
                {grouped ? (
                  <>
                    <input type="hidden" name={fieldNames.groupId(g)} value={group.id} />
                    <LabelledControl
                      id={idOf(fieldNames.groupLabel(g))}
                      label={`${Item} ${g + 1} title`}
                      error={errors[fieldNames.groupLabel(g)]}
                    >
                      {(control) => (
                        <input
                          {...control}
                          name={fieldNames.groupLabel(g)}
                          defaultValue={group.label}
                          maxLength={NAV_LIMITS.label * 2}
                          className={`${inputClasses} max-w-sm`}
                        />
                      )}
                    </LabelledControl>
                  </>
                ) : null}
                <FieldError id={idOf(fieldNames.groupLinks(g))} message={errors[fieldNames.groupLinks(g)]} />
                <ol className="space-y-3">
                  {group.links.map((link, l) => (
                    <li key={l} className="grid gap-3 rounded-md bg-slate-50 p-3 sm:grid-cols-[1fr_1.4fr_auto] sm:items-start">
                      <LabelledControl
                        id={idOf(fieldNames.linkLabel(g, l))}
                        label={`Link ${l + 1} text`}
                        error={errors[fieldNames.linkLabel(g, l)]}
                      >
                        {(control) => (
                          <input
                            {...control}
                            name={fieldNames.linkLabel(g, l)}
                            defaultValue={link.label}
                            maxLength={NAV_LIMITS.label * 2}
                            className={inputClasses}
                          />
                        )}
                      </LabelledControl>
                      <LabelledControl
                        id={idOf(fieldNames.linkTo(g, l))}
                        label={`Link ${l + 1} address`}
                        error={errors[fieldNames.linkTo(g, l)]}
                      >
                        {(control) => (
                          <input
                            {...control}
                            name={fieldNames.linkTo(g, l)}
                            defaultValue={link.to}
                            maxLength={NAV_LIMITS.link}
                            placeholder="/company/about or https://…"
                            className={`${inputClasses} font-mono`}
                          />
                        )}
                      </LabelledControl>
                      <div className="flex flex-wrap gap-2 sm:pt-6">
                        <EditButton value={`up-link:${g}:${l}`} disabled={busy || l === 0} what={`link ${l + 1}`} in={title}>
                          Move up
                        </EditButton>
                        <EditButton
                          value={`down-link:${g}:${l}`}
                          disabled={busy || l === group.links.length - 1}
                          what={`link ${l + 1}`}
                          in={title}
                        >
                          Move down
                        </EditButton>
                        <EditButton value={`remove-link:${g}:${l}`} disabled={busy} what={`link ${l + 1}`} in={title} danger>
                          Remove
                        </EditButton>
                      </div>
                    </li>
                  ))}
                </ol>
                <div className="flex flex-wrap gap-2">
                  <EditButton value={`add-link:${g}`} disabled={busy || group.links.length >= maxLinks} what="a link" in={title}>
                    Add
                  </EditButton>
                  {grouped ? (
                    <>
                      <EditButton value={`up-group:${g}`} disabled={busy || g === 0} what={`${itemName} ${g + 1}`}>
                        Move up
                      </EditButton>
                      <EditButton
                        value={`down-group:${g}`}
                        disabled={busy || g === draft.length - 1}
                        what={`${itemName} ${g + 1}`}
                      >
                        Move down
                      </EditButton>
                      <EditButton value={`remove-group:${g}`} disabled={busy} what={`${itemName} ${g + 1}`} danger>
                        Remove
                      </EditButton>
                    </>
                  ) : null}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-3">
        {grouped ? (
          <button
            type="submit"
            name="intent"
            value="add-group"
            disabled={busy || draft.length >= maxGroups}
            className={buttonClasses("secondary")}
          >
            Add a {itemName}
          </button>
        ) : null}
        <button type="submit" name="intent" value="reset" disabled={busy} className={buttonClasses("ghost")}>
          Start again from the site&apos;s original {grouped ? `${itemName}s` : "links"}
        </button>
      </div>
    </Form>
  );
}
