import type { Stat } from "~/ui/content-types";

/** Headline figures (about, community) as one list; the value is read before its label. */
export function StatList({ stats }: { stats: readonly Stat[] }) {
  return (
    <ul className="grid grid-cols-2 gap-6 lg:grid-cols-4">
      {stats.map((stat) => (
        <li key={stat.label} className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <p className="text-3xl font-extrabold tracking-tight text-brand-700 sm:text-4xl">{stat.value}</p>
          <p className="mt-1 text-sm font-medium text-muted">{stat.label}</p>
        </li>
      ))}
    </ul>
  );
}
