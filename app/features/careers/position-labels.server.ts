import { WORKPLACE_TEXT_KEYS } from "~/features/careers/careers-texts";
import { formatPayRange, type EmploymentType, type PayRange, type Position, type Workplace } from "~/features/careers/positions";
import { catalogMessage } from "~/features/i18n/messages.server";

// What the server writes about a position in a page's language (its workplace, employment type,
// pay and where it is done) and the careers board's counts, from the catalogs (`careers.*`, and the
// board's `shell.careers.*` workplace names). English is the catalog's, word for word as before.

const EMPLOYMENT_TYPE_KEYS: Record<EmploymentType, string> = {
  "full-time": "careers.employmentType.fullTime",
  "part-time": "careers.employmentType.partTime",
  contract: "careers.employmentType.contract",
  temporary: "careers.employmentType.temporary",
  internship: "careers.employmentType.internship",
};

export type PositionLabels = {
  tag: string;
  workplace: (workplace: Workplace) => string;
  employmentType: (type: EmploymentType) => string;
  /** "€70,000–€90,000 a year", "70.000 €–90.000 € pro Jahr". */
  pay: (pay: PayRange) => string;
  /** "Remote (European Union)", "London or New York (hybrid)": where the work is done, for lists. */
  where: (position: Pick<Position, "workplace" | "locations" | "remoteRegions">) => string;
  /** The words written by `key` with `values` (a catalog message). */
  message: (key: string, values?: Record<string, string | number>) => string;
};

const made = new Map<string, PositionLabels>();

/** A position's labels in the language `tag` (made once per language). */
export function positionLabels(tag: string): PositionLabels {
  const known = made.get(tag);
  if (known) return known;
  const message = (key: string, values?: Record<string, string | number>) => catalogMessage(tag, key, values);
  const or = ` ${message("careers.where.or")} `;
  // English amounts as the site has always written them ("€70,000", "US$25"); another language's its own way.
  const amounts = tag === "en" ? "en-GB" : tag;
  const labels: PositionLabels = {
    tag,
    workplace: (workplace) => message(WORKPLACE_TEXT_KEYS[workplace]),
    employmentType: (type) => message(EMPLOYMENT_TYPE_KEYS[type]),
    pay: (pay) => message(`careers.pay.${pay.period}`, { range: formatPayRange(pay, amounts) }),
    where: ({ workplace, locations, remoteRegions }) => {
      if (workplace === "remote")
        return remoteRegions.length
          ? message("careers.where.remoteIn", { regions: remoteRegions.join(or) })
          : message(WORKPLACE_TEXT_KEYS.remote);
      const places = locations.join(or);
      return workplace === "hybrid" ? message("careers.where.hybrid", { places }) : places;
    },
    message,
  };
  made.set(tag, labels);
  return labels;
}

/**
 * What the careers board says under its filters, for `total` open positions: all of them, and
 * each number the filters can let through (0 to `total`), written with the language's plurals.
 */
export function boardCounts(labels: PositionLabels, total: number): { all: string; matching: string[] } {
  return {
    all: labels.message("careers.openPositions", { count: total }),
    matching: Array.from({ length: total + 1 }, (_, count) => labels.message("careers.matchingPositions", { count })),
  };
}
