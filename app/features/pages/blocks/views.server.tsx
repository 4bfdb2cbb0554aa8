import type { ComponentType, ReactNode } from "react";
import { LatestInsights } from "~/features/blog/components/latest-insights";
import type { VisualName } from "~/features/pages/components/document-visual";
import { BulletList } from "~/ui/bullet-list";
import { ButtonLink } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { InertButton } from "~/ui/inert-button";
import { ItemGrid } from "~/ui/item-grid";
import { LinkList } from "~/ui/link-list";
import { PageHero, Section } from "~/ui/section";
import { StatList } from "~/ui/stat-list";
import { StepList } from "~/ui/step-list";
import type { Item } from "~/ui/content-types";
import type { BlockOf, BlockType } from "~/features/pages/blocks/definitions.server";
import type { LatestInsights as LatestInsightsData } from "~/features/blog/posts";
import { documentHtmlElementId } from "~/platform/document-html";
import type { StreamedLoad } from "~/platform/load-result";
import { keptQuery } from "~/features/site/query-params";
import { latestInsightsTexts } from "~/features/blog/latest-insights-texts.server";

// Each block type's view: the site's own components, fed a block's fields. Views take what they
// need from the server through `env` (rendered markup, the drawn pictures), so a page's static
// blocks are drawn once on the server (~/features/pages/blocks/render.server) and its JavaScript
// carries none of them.

export type ViewEnv = {
  /** The page's path and query (the careers Apply Now link keeps the campaign's parameters). */
  path: string;
  search: string;
  /** The page's language (its path's prefix): the words views write themselves are in it. */
  locale: string;
  /** Safe HTML of a markup field, its elements given the classes of `style`. */
  markup: (text: string, style?: MarkupStyle) => string;
  /** The same for a one-paragraph field, without its <p> (an introduction). */
  inlineMarkup: (text: string, style?: MarkupStyle) => string;
  /** A product picture's markup, drawn on the server. */
  visual: (name: VisualName) => string;
  /** The Latest Insights block's data. */
  insights?: StreamedLoad<LatestInsightsData>;
  /** What the page's route puts in a hero with a job application (the form itself). */
  application?: ReactNode;
};

export type BlockViewProps<Type extends BlockType> = { block: BlockOf<Type>; env: ViewEnv };

type Action = { label: string; href: string; style?: "primary" | "secondary"; screenReaderSuffix?: string };

/** Classes for the elements of rendered markup: a link, inline code, a paragraph after another, lists. */
export type MarkupStyle = { a?: string; code?: string; nextP?: string; ul?: string; ol?: string };

const LINK = "font-semibold text-brand-700 underline";
const LISTS = { ul: "list-disc space-y-2 pl-6", ol: "list-decimal space-y-2 pl-6" };
const HERO_TEXT: MarkupStyle = { a: LINK, code: "rounded bg-white px-1.5 py-0.5 font-mono text-base break-all", nextP: "mt-3" };
const INTRO: MarkupStyle = { a: LINK, code: "rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base" };
const BODY: MarkupStyle = { a: LINK, code: "rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base", ...LISTS };

function Html({ html, className = "contents", id }: { html: string; className?: string; id?: string }) {
  // Trusted: the post markup's renderer escapes text and allows only checked URLs.
  return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

function Drawn({ name, env }: { name: VisualName; env: ViewEnv }) {
  // The same element a <DocumentVisual> draws, so the picture's markup is found where it always was.
  return <Html id={documentHtmlElementId(name)} className="" html={env.visual(name)} />;
}

function ActionLink({
  action,
  variant,
  className,
}: {
  action: Action;
  variant?: "primary" | "secondary" | "inverse";
  className?: string;
}) {
  return (
    <ButtonLink to={action.href} variant={variant ?? action.style} className={className}>
      {action.label}
      {action.screenReaderSuffix ? <span className="sr-only"> {action.screenReaderSuffix}</span> : null}
    </ButtonLink>
  );
}

function Actions({ actions }: { actions: readonly Action[] }) {
  if (!actions.length) return null;
  return (
    <div className="mt-8 flex flex-wrap gap-4">
      {actions.map((action) => (
        <ActionLink key={`${action.label} ${action.href}`} action={action} />
      ))}
    </div>
  );
}

type SectionBlock = { anchor?: string; title: string; intro?: string };

function BlockSection({ block, env, children }: { block: SectionBlock; env: ViewEnv; children: ReactNode }) {
  const intro = block.intro ? <Html html={env.inlineMarkup(block.intro, INTRO)} /> : undefined;
  return (
    <Section id={block.anchor} title={block.title} intro={intro}>
      {children}
    </Section>
  );
}

const asItem = (item: { icon?: Item["icon"]; title: string; meta?: string; text?: string }): Item => ({
  icon: item.icon,
  title: item.title,
  meta: item.meta,
  description: item.text,
});

/** The careers page's Apply Now address: its own URL with apply=1, keeping the campaign's parameters. */
export function applyHref(path: string, search: string) {
  const params = new URLSearchParams(keptQuery(path, search));
  params.set("apply", "1");
  return `${path}?${params}`;
}

/** What a hero holds under its heading: the text, the search box, the calls to action, the application link. */
export function HeroBody({ block, env }: BlockViewProps<"hero">) {
  const parts: ReactNode[] = [];
  if (block.lede) parts.push(<Html key="lede" html={env.markup(block.lede, HERO_TEXT)} />);
  if (block.search)
    parts.push(
      // Deliberately not a form: the search does nothing, with or without JavaScript.
      <div key="search" className="mt-2 max-w-2xl">
        <label htmlFor="support-search" className="block text-base font-semibold text-ink">
          {block.search.label}
        </label>
        <div className="mt-2 flex gap-3">
          <input
            id="support-search"
            type="search"
            name="q"
            placeholder={block.search.placeholder}
            className="min-w-0 flex-1 rounded-lg border border-slate-400 bg-white px-4 py-2.5 text-base text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          />
          <InertButton variant="primary">
            <Icon name="search" className="size-4" />
            {block.search.buttonLabel}
          </InertButton>
        </div>
      </div>,
    );
  if (block.actions.length) parts.push(<Actions key="actions" actions={block.actions} />);
  if (block.application)
    parts.push(
      <div key="apply" className="mt-8">
        <ButtonLink to={applyHref(env.path, env.search)}>{block.application.label}</ButtonLink>
      </div>,
    );
  return parts.length ? <>{parts}</> : null;
}

function heroAside(block: BlockOf<"hero">, env: ViewEnv) {
  if (block.visual === "product-illustration") return <Drawn name="sentinel-console" env={env} />;
  if (block.visual === "image" && block.image)
    return (
      <img
        src={block.image.src}
        alt={block.image.alt}
        width={block.image.width}
        height={block.image.height}
        fetchPriority="high"
        decoding="async"
        className="h-auto w-full rounded-2xl"
      />
    );
  return undefined;
}

function HeroView({ block, env }: BlockViewProps<"hero">) {
  const body = HeroBody({ block, env });
  return (
    <PageHero eyebrow={block.eyebrow} title={block.title} aside={heroAside(block, env)}>
      {body || block.application ? (
        <>
          {body}
          {block.application ? env.application : null}
        </>
      ) : null}
    </PageHero>
  );
}

function ItemGridView({ block, env }: BlockViewProps<"item-grid">) {
  return (
    <BlockSection block={block} env={env}>
      <ItemGrid items={block.items.map(asItem)} columns={block.columns} />
    </BlockSection>
  );
}

function CardsView({ block, env }: BlockViewProps<"cards">) {
  const { label, subjectPrefix } = block.button;
  return (
    <BlockSection block={block} env={env}>
      <ItemGrid
        items={block.items.map(asItem)}
        columns={block.columns}
        action={(item) => (
          <InertButton subject={subjectPrefix ? `${subjectPrefix} ${item.title}` : item.title}>{label}</InertButton>
        )}
      />
    </BlockSection>
  );
}

function FiguresView({ block, env }: BlockViewProps<"figures">) {
  return (
    <BlockSection block={block} env={env}>
      <StatList stats={block.items} />
    </BlockSection>
  );
}

function ProofBandView({ env }: BlockViewProps<"proof-band">) {
  return <Drawn name="proof-points" env={env} />;
}

function VisualView({ block, env }: BlockViewProps<"visual">) {
  return (
    <BlockSection block={block} env={env}>
      <Drawn name={block.visual} env={env} />
    </BlockSection>
  );
}

function LinkGroupsView({ block, env }: BlockViewProps<"link-groups">) {
  const links = (group: BlockOf<"link-groups">["groups"][number]) =>
    group.links.map((link) => ({ label: link.label, to: link.href, description: link.description }));
  const [first] = block.groups;
  return (
    <BlockSection block={block} env={env}>
      {block.groups.length === 1 && first && !first.title ? (
        <div className="max-w-3xl">
          <LinkList links={links(first)} />
        </div>
      ) : (
        <div className="grid gap-8 md:grid-cols-2">
          {block.groups.map((group, index) => (
            <div key={group.title ?? index}>
              {group.title ? <h3 className="mb-4 text-lg font-semibold">{group.title}</h3> : null}
              <LinkList links={links(group)} />
            </div>
          ))}
        </div>
      )}
    </BlockSection>
  );
}

function CodeSampleView({ block, env }: BlockViewProps<"code-sample">) {
  return (
    <BlockSection block={block} env={env}>
      <figure className="max-w-3xl">
        <figcaption className="mb-2 text-sm font-medium text-muted">{block.caption}</figcaption>
        {/* Focusable so keyboard users can scroll long lines on narrow screens. */}
        <pre tabIndex={0} className="overflow-x-auto rounded-2xl bg-slate-900 p-5 text-sm leading-relaxed text-slate-100">
          <code>{block.code}</code>
        </pre>
      </figure>
    </BlockSection>
  );
}

function RichTextView({ block, env }: BlockViewProps<"rich-text">) {
  const body = <Html className="max-w-3xl space-y-4 text-lg" html={env.markup(block.body, BODY)} />;
  if (!block.title) return <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-14">{body}</div>;
  return (
    <BlockSection block={{ ...block, title: block.title }} env={env}>
      {body}
    </BlockSection>
  );
}

function CtaBandView({ block, env }: BlockViewProps<"cta-band">) {
  const [only] = block.actions;
  return (
    <BlockSection block={block} env={env}>
      {block.actions.length === 1 && only ? (
        <ActionLink action={only} />
      ) : (
        <div className="flex flex-wrap gap-4">
          {block.actions.map((action) => (
            <ActionLink key={`${action.label} ${action.href}`} action={action} />
          ))}
        </div>
      )}
    </BlockSection>
  );
}

function FaqView({ block, env }: BlockViewProps<"faq">) {
  return (
    <BlockSection block={block} env={env}>
      <div className="max-w-3xl divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {block.items.map((item) => (
          <details key={item.question} className="p-5">
            <summary className="cursor-pointer text-lg font-semibold">{item.question}</summary>
            <Html className="mt-3 space-y-3 text-muted" html={env.markup(item.answer, BODY)} />
          </details>
        ))}
      </div>
    </BlockSection>
  );
}

function LatestInsightsView({ env }: BlockViewProps<"latest-insights">) {
  return (
    <LatestInsights
      insights={env.insights ?? { state: "loaded", value: { featured: null, others: [], total: 0 } }}
      texts={latestInsightsTexts(env.locale)}
    />
  );
}

function ProductBandView({ block }: BlockViewProps<"product-band">) {
  const headingId = `${block.anchor}-heading`;
  const [first, second] = block.actions;
  return (
    <section aria-labelledby={headingId} className="bg-brand-900 text-white">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-16">
        {block.eyebrow ? <p className="text-sm font-semibold tracking-wider text-brand-100 uppercase">{block.eyebrow}</p> : null}
        <h2 id={headingId} className="mt-2 text-3xl font-bold tracking-tight">
          {block.title}
        </h2>
        {block.text ? <p className="mt-3 max-w-2xl text-lg text-brand-100">{block.text}</p> : null}
        <ul className="mt-8 grid gap-6 sm:grid-cols-2">
          {block.items.map((feature) => (
            <li key={feature.title} className="flex gap-4 rounded-2xl bg-white/5 p-5">
              {feature.icon ? <Icon name={feature.icon} className="size-6 shrink-0 text-brand-100" /> : null}
              <div>
                <h3 className="font-semibold">{feature.title}</h3>
                {feature.text ? <p className="mt-1 text-brand-100">{feature.text}</p> : null}
              </div>
            </li>
          ))}
        </ul>
        {first ? (
          <div className="mt-10 flex flex-wrap gap-4">
            <ActionLink action={first} variant="inverse" />
            {second ? <ActionLink action={second} className="border border-white/40 bg-transparent hover:bg-white/10" /> : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}

const columnGrid = { 1: "", 2: "md:grid-cols-2", 3: "md:grid-cols-3", 4: "md:grid-cols-2 lg:grid-cols-4" } as const;

function BulletColumnsView({ block, env }: BlockViewProps<"bullet-columns">) {
  const bullets = (column: BlockOf<"bullet-columns">["columns"][number]) =>
    column.marker === "cross" ? (
      <BulletList items={column.items} icon="x" iconClassName="text-red-700" />
    ) : (
      <BulletList items={column.items} />
    );
  const [first] = block.columns;
  return (
    <BlockSection block={block} env={env}>
      {block.columns.length === 1 && first && !first.title ? (
        <div className="max-w-3xl text-lg">{bullets(first)}</div>
      ) : (
        <div className={`grid gap-8 ${columnGrid[block.columns.length as 1 | 2 | 3 | 4]}`}>
          {block.columns.map((column, index) => (
            <div key={column.title ?? index}>
              {column.title ? <h3 className="mb-4 text-lg font-semibold">{column.title}</h3> : null}
              {bullets(column)}
            </div>
          ))}
        </div>
      )}
    </BlockSection>
  );
}

function StepsView({ block, env }: BlockViewProps<"steps">) {
  return (
    <BlockSection block={block} env={env}>
      <StepList steps={block.steps} />
    </BlockSection>
  );
}

function QuoteView({ block, env }: BlockViewProps<"quote">) {
  return (
    <BlockSection block={block} env={env}>
      <blockquote className="max-w-3xl border-l-4 border-brand-700 pl-6 text-xl font-medium">{block.text}</blockquote>
    </BlockSection>
  );
}

function NumberedCardsView({ block, env }: BlockViewProps<"numbered-cards">) {
  return (
    <BlockSection block={block} env={env}>
      <ol className="grid gap-6 md:grid-cols-2">
        {block.items.map((item, index) => (
          <li key={item.title} className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span aria-hidden="true" className="text-2xl font-extrabold text-brand-700">
              {index + 1}
            </span>
            <div>
              <h3 className="text-lg font-semibold">{item.title}</h3>
              <p className="mt-2 text-muted">{item.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </BlockSection>
  );
}

function PanelsView({ block, env }: BlockViewProps<"panels">) {
  return (
    <BlockSection block={block} env={env}>
      <div className="grid gap-6 md:grid-cols-2">
        {block.items.map((panel) => (
          <div key={panel.title} className="rounded-2xl bg-brand-50 p-6">
            <h3 className="text-lg font-semibold">{panel.title}</h3>
            <p className="mt-2 text-lg">{panel.text}</p>
          </div>
        ))}
      </div>
    </BlockSection>
  );
}

function TextListView({ block, env }: BlockViewProps<"text-list">) {
  return (
    <BlockSection block={block} env={env}>
      <ul className="grid gap-3 md:grid-cols-2">
        {block.items.map((title) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-4 font-medium">
            {title}
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

function StatusPanelView({ block, env }: BlockViewProps<"status-panel">) {
  return (
    <BlockSection block={block} env={env}>
      <div className="rounded-2xl border border-emerald-200 bg-emerald-50 p-6">
        <p className="flex items-center gap-2 text-lg font-semibold text-emerald-900">
          <Icon name="circle-check" className="size-6" />
          {block.summary}
        </p>
        <ul className="mt-4 grid gap-2 sm:grid-cols-2">
          {block.figures.map((figure) => (
            <li key={figure} className="font-medium text-emerald-900">
              {figure}
            </li>
          ))}
        </ul>
        <h3 className="mt-6 text-base font-semibold text-emerald-900">{block.componentsTitle}</h3>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {block.components.map((component) => (
            <li key={component} className="flex justify-between gap-4 rounded-lg bg-white px-4 py-2">
              <span>{component}</span>
              <span className="font-medium text-emerald-800">{block.componentState}</span>
            </li>
          ))}
        </ul>
      </div>
    </BlockSection>
  );
}

function DefinitionsView({ block, env }: BlockViewProps<"definitions">) {
  return (
    <BlockSection block={block} env={env}>
      <dl className="grid gap-6 md:grid-cols-3">
        {block.items.map((entry) => (
          <div key={entry.term} className="rounded-2xl border border-slate-200 bg-white p-6">
            <dt className="text-lg font-semibold">{entry.term}</dt>
            <dd className="mt-2 text-muted">{entry.text}</dd>
          </div>
        ))}
      </dl>
    </BlockSection>
  );
}

const methodColours: Record<BlockOf<"endpoints">["items"][number]["method"], string> = {
  GET: "bg-emerald-100 text-emerald-900",
  POST: "bg-brand-100 text-brand-900",
  PUT: "bg-amber-100 text-amber-900",
  PATCH: "bg-amber-100 text-amber-900",
  DELETE: "bg-red-100 text-red-900",
};

function EndpointsView({ block, env }: BlockViewProps<"endpoints">) {
  return (
    <BlockSection block={block} env={env}>
      <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {block.items.map((endpoint) => (
          <li
            key={`${endpoint.method} ${endpoint.path}`}
            className="flex flex-col gap-2 p-5 md:flex-row md:items-baseline md:gap-6"
          >
            <p className="flex min-w-0 items-baseline gap-3 md:w-96 md:shrink-0">
              <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${methodColours[endpoint.method]}`}>
                {endpoint.method}
              </span>
              <code className="font-mono text-sm font-semibold break-all">{endpoint.path}</code>
            </p>
            <p className="text-muted">{endpoint.text}</p>
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

function NoteCardsView({ block, env }: BlockViewProps<"note-cards">) {
  return (
    <BlockSection block={block} env={env}>
      <ul className="grid gap-4 md:grid-cols-2">
        {block.items.map((card) => (
          <li key={card.title} className="rounded-2xl border border-slate-200 bg-white p-5">
            <h3 className="font-semibold">{card.title}</h3>
            <p className="mt-1 text-muted">{card.text}</p>
            {card.note ? <p className="mt-1 text-sm font-medium text-brand-700">{card.note}</p> : null}
          </li>
        ))}
      </ul>
    </BlockSection>
  );
}

/** Every block type's view. */
export const blockViews: { [Type in BlockType]: ComponentType<BlockViewProps<Type>> } = {
  hero: HeroView,
  "item-grid": ItemGridView,
  cards: CardsView,
  figures: FiguresView,
  "proof-band": ProofBandView,
  visual: VisualView,
  "link-groups": LinkGroupsView,
  "code-sample": CodeSampleView,
  "rich-text": RichTextView,
  "cta-band": CtaBandView,
  faq: FaqView,
  "latest-insights": LatestInsightsView,
  "product-band": ProductBandView,
  "bullet-columns": BulletColumnsView,
  steps: StepsView,
  quote: QuoteView,
  "numbered-cards": NumberedCardsView,
  panels: PanelsView,
  "text-list": TextListView,
  "status-panel": StatusPanelView,
  definitions: DefinitionsView,
  endpoints: EndpointsView,
  "note-cards": NoteCardsView,
};

/** One block through its type's view. */
export function BlockView({ block, env }: { block: { type: BlockType }; env: ViewEnv }) {
  const View = blockViews[block.type] as ComponentType<{ block: typeof block; env: ViewEnv }>;
  return <View block={block} env={env} />;
}
