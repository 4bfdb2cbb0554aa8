import type { Workplace } from "~/features/careers/positions";

// The careers page's filters of the open positions (team, location, workplace), shared by the
// server, which hides what they leave out, and the page, which filters its list in place.

/** What the careers page's filters offer: the open positions' own teams, locations and workplaces. */
export type BoardChoices = { team: string[]; location: string[]; workplace: Workplace[] };
export type BoardFilters = { team: string; location: string; workplace: string };

/** The filters in the address, each kept only when it names a choice the positions offer. */
export function boardFiltersOf(params: URLSearchParams, choices: BoardChoices): BoardFilters {
  const pick = (name: keyof BoardFilters, allowed: readonly string[]) => {
    const value = params.get(name) ?? "";
    return allowed.includes(value) ? value : "";
  };
  return {
    team: pick("team", choices.team),
    location: pick("location", choices.location),
    workplace: pick("workplace", choices.workplace),
  };
}

/** Whether a position is one the filters let through. */
export function matchesBoardFilters(
  position: { team: string; locations: readonly string[]; workplace: string },
  filters: BoardFilters,
): boolean {
  return (
    (!filters.team || position.team === filters.team) &&
    (!filters.location || position.locations.includes(filters.location)) &&
    (!filters.workplace || position.workplace === filters.workplace)
  );
}

/** The id under which the careers page's document carries the open positions' list. */
export const OPEN_POSITIONS_LIST_ID = "open-positions";
