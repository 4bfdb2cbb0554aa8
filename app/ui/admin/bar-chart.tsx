// A stacked bar chart drawn on the server as SVG: no chart script reaches the browser. It is a
// picture of the table the page shows beside it, so assistive technology skips it and reads the
// table; the caption says what it shows.

export type ChartSeries = { label: string; values: readonly number[]; className: string };

const WIDTH = 640;
const HEIGHT = 200;
const AXIS = 24;
const TOP = 12;

export function BarChart({
  title,
  categories,
  series,
}: {
  title: string;
  /** One label per bar (a week's Monday, shown shortened). */
  categories: readonly string[];
  series: readonly ChartSeries[];
}) {
  const totals = categories.map((_, index) => series.reduce((sum, one) => sum + (one.values[index] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const slot = (WIDTH - AXIS) / Math.max(1, categories.length);
  const barWidth = Math.max(2, slot * 0.7);
  const scale = (HEIGHT - AXIS - TOP) / max;
  const labelEvery = Math.ceil(categories.length / 8);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4">
      <figcaption className="text-sm font-semibold">{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="mt-2 h-auto w-full" aria-hidden="true" focusable="false">
        <text x={0} y={TOP} className="fill-slate-500 text-[10px]">
          {max}
        </text>
        <line x1={AXIS} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} className="stroke-slate-300" />
        {categories.map((category, index) => {
          let top = HEIGHT - AXIS;
          const x = AXIS + index * slot + (slot - barWidth) / 2;
          return (
            <g key={category}>
              {series.map((one) => {
                const height = (one.values[index] ?? 0) * scale;
                top -= height;
                return height > 0 ? (
                  <rect key={one.label} x={x} y={top} width={barWidth} height={height} className={one.className} />
                ) : null;
              })}
              {index % labelEvery === 0 ? (
                <text x={x} y={HEIGHT - 8} className="fill-slate-500 text-[10px]">
                  {category.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {series.length > 1 ? (
        <ul className="mt-2 flex flex-wrap gap-4 text-xs text-muted" aria-hidden="true">
          {series.map((one) => (
            <li key={one.label} className="flex items-center gap-1">
              <svg viewBox="0 0 10 10" className="h-3 w-3">
                <rect width="10" height="10" className={one.className} />
              </svg>
              {one.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
