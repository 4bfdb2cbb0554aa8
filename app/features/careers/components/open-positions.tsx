import { useEffect, useRef, useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import {
  boardFiltersOf,
  matchesBoardFilters,
  OPEN_POSITIONS_LIST_ID,
  type BoardChoices,
  type BoardFilters,
} from "~/features/careers/board-filters";
import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";
import { Button } from "~/ui/button";
import { Section } from "~/ui/section";
import { useShellText } from "~/ui/shell-text";
import { textsOf } from "~/ui/route-texts";
import { WORKPLACE_TEXT_KEYS, type CareersTexts } from "~/features/careers/careers-texts";

// The careers page's open positions, grouped by team, with filters by team, location and
// workplace. The filters are a GET form: without JavaScript it reloads the page with them in the
// address, and the server's list hides what they leave out; with it, the address changes and the
// list (every open position came with the page, once, as HTML) is filtered here, asking the server
// nothing. Its words come with the page in its language; the counts under the filters are written
// by the server for every number the filters can let through.

type Board = {
  choices: BoardChoices;
  total: number;
  shown: number;
  counts: { all: string; matching: string[] };
  listHtml: string | undefined;
};

const control =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** Shows the entries (and team groups) of the server's list that the filters let through; how many. */
function filterList(list: HTMLElement, filters: BoardFilters): number {
  let shown = 0;
  for (const group of list.querySelectorAll<HTMLElement>("[data-team]")) {
    let groupShown = false;
    for (const entry of group.querySelectorAll<HTMLElement>("li[data-workplace]")) {
      const match = matchesBoardFilters(
        {
          team: group.dataset.team ?? "",
          workplace: entry.dataset.workplace ?? "",
          locations: JSON.parse(entry.dataset.locations ?? "[]") as string[],
        },
        filters,
      );
      entry.hidden = !match;
      if (match) shown += 1;
      groupShown ||= match;
    }
    group.hidden = !groupShown;
  }
  return shown;
}

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly [string, string][];
}) {
  const id = `open-positions-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {/* Keyed by the value: a new address resets an uncontrolled select to what it says. */}
      <select key={value} id={id} name={name} defaultValue={value} className={control}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The board, its texts (its title, the line under it, empty and error states) in the page's language. */
export function OpenPositions({ board, texts }: { board: Board | null; texts: CareersTexts }) {
  const [params] = useSearchParams();
  const html = useDocumentHtml(OPEN_POSITIONS_LIST_ID, board?.listHtml);
  const list = useRef<HTMLDivElement>(null);
  const { links } = useShellText();
  const t = textsOf(texts);
  const [shown, setShown] = useState(board?.shown ?? 0);
  const filters: BoardFilters = board ? boardFiltersOf(params, board.choices) : { team: "", location: "", workplace: "" };
  useEffect(() => {
    if (list.current) setShown(filterList(list.current, filters));
    // The filters are strings: the list is filtered again when one of them changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters.team, filters.location, filters.workplace, html]);
  if (board === null)
    return (
      <Section id="open-roles" title={t("shell.careers.openRoles")}>
        <p role="alert" className="text-muted">
          {t("shell.careers.loadError")}
        </p>
      </Section>
    );
  const { choices } = board;
  const filtered = Boolean(filters.team || filters.location || filters.workplace);
  return (
    <Section id="open-roles" title={t("shell.careers.openRoles")} intro={t("shell.careers.anyRole")}>
      {board.total ? (
        <Form
          method="get"
          action={links.careers}
          preventScrollReset
          aria-label={t("shell.careers.filterLabel")}
          className="grid gap-4 sm:grid-cols-4 sm:items-end"
        >
          <Select
            name="team"
            label={t("shell.careers.team")}
            value={filters.team}
            options={[["", t("shell.careers.allTeams")], ...choices.team.map((team) => [team, team] as [string, string])]}
          />
          <Select
            name="location"
            label={t("shell.careers.location")}
            value={filters.location}
            options={[
              ["", t("shell.careers.allLocations")],
              ...choices.location.map((location) => [location, location] as [string, string]),
            ]}
          />
          <Select
            name="workplace"
            label={t("shell.careers.workplace")}
            value={filters.workplace}
            options={[
              ["", t("shell.careers.anyWorkplace")],
              ...choices.workplace.map((workplace) => [workplace, t(WORKPLACE_TEXT_KEYS[workplace])] as [string, string]),
            ]}
          />
          <div className="flex items-center gap-4">
            <Button type="submit" variant="secondary">
              {t("shell.careers.filter")}
            </Button>
            {filtered ? (
              <Link
                to={`${links.careers}#open-roles`}
                preventScrollReset
                className="text-base font-semibold text-brand-700 hover:underline"
              >
                {t("shell.careers.clear")}
              </Link>
            ) : null}
          </div>
        </Form>
      ) : null}
      <p aria-live="polite" className="mt-6 text-base text-muted">
        {board.total === 0 ? t("shell.careers.noPositions") : filtered ? board.counts.matching[shown] : board.counts.all}
      </p>
      <div
        ref={list}
        id={documentHtmlElementId(OPEN_POSITIONS_LIST_ID)}
        // Trusted: drawn on the server from the open positions, every text escaped.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Section>
  );
}
