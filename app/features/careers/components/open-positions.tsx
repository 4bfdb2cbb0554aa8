import { Form, Link, useSearchParams } from "react-router";
import { CAREERS_PATH, WORKPLACES, workplaceLabels, type BoardPosition, type Workplace } from "~/features/careers/positions";
import { Button } from "~/ui/button";
import { Section } from "~/ui/section";

// The careers page's open positions, grouped by team, with filters by team, location and
// workplace. The filters are a GET form: without JavaScript it reloads the page with them in the
// address; with it, the address changes and the list (all open positions came with the page) is
// filtered here, asking the server nothing.

export const BOARD_FILTERS = ["team", "location", "workplace"] as const;

type Filters = { team: string; location: string; workplace: string };

const control =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** Each choice visitors can filter by, as the open positions offer them. */
function choicesOf(positions: readonly BoardPosition[]) {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  const workplaces = new Set(positions.map((position) => position.workplace));
  return {
    team: sorted(positions.map((position) => position.team)),
    location: sorted(positions.flatMap((position) => position.locations)),
    workplace: WORKPLACES.filter((workplace) => workplaces.has(workplace)),
  };
}

/** The filters in the address, each kept only when it names a choice the positions offer. */
function filtersOf(params: URLSearchParams, choices: ReturnType<typeof choicesOf>): Filters {
  const pick = (name: keyof Filters, allowed: readonly string[]) => {
    const value = params.get(name) ?? "";
    return allowed.includes(value) ? value : "";
  };
  return {
    team: pick("team", choices.team),
    location: pick("location", choices.location),
    workplace: pick("workplace", choices.workplace),
  };
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

export function OpenPositions({ positions, intro }: { positions: readonly BoardPosition[] | null; intro?: string }) {
  const [params] = useSearchParams();
  if (positions === null)
    return (
      <Section id="open-roles" title="Open roles">
        <p role="alert" className="text-muted">
          The open positions could not be loaded. Please try again later.
        </p>
      </Section>
    );
  const choices = choicesOf(positions);
  const filters = filtersOf(params, choices);
  const shown = positions.filter(
    (position) =>
      (!filters.team || position.team === filters.team) &&
      (!filters.location || position.locations.includes(filters.location)) &&
      (!filters.workplace || position.workplace === filters.workplace),
  );
  const teams = [...new Set(shown.map((position) => position.team))];
  const filtered = Boolean(filters.team || filters.location || filters.workplace);
  return (
    <Section id="open-roles" title="Open roles" intro={intro}>
      {positions.length ? (
        <Form
          method="get"
          action={CAREERS_PATH}
          preventScrollReset
          aria-label="Filter open positions"
          className="grid gap-4 sm:grid-cols-4 sm:items-end"
        >
          <Select
            name="team"
            label="Team"
            value={filters.team}
            options={[["", "All teams"], ...choices.team.map((team) => [team, team] as [string, string])]}
          />
          <Select
            name="location"
            label="Location"
            value={filters.location}
            options={[["", "All locations"], ...choices.location.map((location) => [location, location] as [string, string])]}
          />
          <Select
            name="workplace"
            label="Workplace"
            value={filters.workplace}
            options={[
              ["", "Any workplace"],
              ...choices.workplace.map((workplace: Workplace) => [workplace, workplaceLabels[workplace]] as [string, string]),
            ]}
          />
          <div className="flex items-center gap-4">
            <Button type="submit" variant="secondary">
              Filter
            </Button>
            {filtered ? (
              <Link
                to={`${CAREERS_PATH}#open-roles`}
                preventScrollReset
                className="text-base font-semibold text-brand-700 hover:underline"
              >
                Clear
              </Link>
            ) : null}
          </div>
        </Form>
      ) : null}
      <p aria-live="polite" className="mt-6 text-base text-muted">
        {positions.length === 0
          ? "There are no open positions at the moment."
          : `${shown.length} open position${shown.length === 1 ? "" : "s"}${filtered ? " match these filters" : ""}.`}
      </p>
      {teams.map((team) => (
        <div key={team} className="mt-8">
          <h3 className="text-xl font-semibold">{team}</h3>
          <ul className="mt-3 divide-y divide-slate-200 border-y border-slate-200">
            {shown
              .filter((position) => position.team === team)
              .map((position) => (
                <li key={position.id} className="py-4">
                  <Link to={position.path} className="text-lg font-semibold text-brand-700 hover:underline">
                    {position.title}
                  </Link>
                  <p className="mt-1 text-base text-muted">
                    {[position.where, position.employmentType, position.pay].filter(Boolean).join(" · ")}
                  </p>
                  {position.summary ? <p className="mt-1 text-base text-slate-800">{position.summary}</p> : null}
                </li>
              ))}
          </ul>
        </div>
      ))}
    </Section>
  );
}
