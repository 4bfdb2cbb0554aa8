import { Link } from "react-router";
import { buttonClasses } from "~/ui/button";
import { ResponsivePicture } from "~/features/media/components/responsive-picture";
import { POST_IMAGE_CLASSES, POST_IMAGE_SIZES, type PostSummary } from "~/features/blog/posts";
import { formatLongDate, isoDay } from "~/platform/dates";
import { Icon } from "~/ui/icon";
import { useShellText } from "~/ui/shell-text";

/** Author · date · "N min read" under a post title. */
export function PostMeta({ post, className = "" }: { post: PostSummary; className?: string }) {
  const { t, tag } = useShellText();
  return (
    <p className={`flex flex-wrap items-center gap-x-2 text-sm text-muted ${className}`}>
      <span>{post.author}</span>
      <span aria-hidden="true">·</span>
      <time dateTime={isoDay(post.publishedDate)}>{formatLongDate(post.publishedDate, tag)}</time>
      <span aria-hidden="true">·</span>
      <span>{t("blog.readTime", { minutes: post.readTime })}</span>
    </p>
  );
}

export function CategoryLabel({ category }: { category: string }) {
  return <p className="text-xs font-semibold tracking-wider text-brand-700 uppercase">{category}</p>;
}

/**
 * The post's image, or a neutral placeholder of the same size so nothing shifts. A raster image of
 * this site comes as a <picture> of its variants; a remote URL or an SVG is drawn as it is.
 * `priority` marks the one largest image above the fold; all others load lazily.
 */
export function PostImage({
  post,
  sizes,
  className = "",
  priority = false,
}: {
  post: PostSummary;
  sizes: string;
  className?: string;
  priority?: boolean;
}) {
  if (!post.imageUrl) {
    return (
      <div
        aria-hidden="true"
        className={`flex aspect-video items-center justify-center bg-gradient-to-br from-brand-50 to-brand-100 ${className}`}
      >
        <Icon name="newspaper" className="size-12 text-brand-600/60" />
      </div>
    );
  }
  // Decorative: the post's title is right beside (or above) it.
  const alt = "";
  if (post.image) {
    return (
      <ResponsivePicture
        image={post.image}
        alt={alt}
        sizes={sizes}
        priority={priority}
        className={`${POST_IMAGE_CLASSES} ${className}`}
      />
    );
  }
  return (
    <img
      src={post.imageUrl}
      alt={alt}
      width={1600}
      height={900}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      className={`${POST_IMAGE_CLASSES} ${className}`}
    />
  );
}

/** A post in a grid: category, title, excerpt, author, date and read time. */
export function PostCard({
  post,
  headingLevel = 3,
  sizes = POST_IMAGE_SIZES.listCard,
  priority = false,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  /** How wide the card's image is drawn in its grid. */
  sizes?: string;
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <PostImage post={post} sizes={sizes} priority={priority} />
      <div className="flex flex-1 flex-col p-6">
        <CategoryLabel category={post.category} />
        <Heading className="mt-2 text-lg font-semibold">
          <Link to={post.href} className="hover:text-brand-700 hover:underline">
            {post.title}
          </Link>
        </Heading>
        <p className="mt-2 flex-1 text-muted">{post.excerpt}</p>
        <PostMeta post={post} className="mt-4" />
      </div>
    </article>
  );
}

/** The featured post, shown large with its badge and a "Read Article" button. */
export function FeaturedPostCard({
  post,
  headingLevel = 3,
  priority = false,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const { t } = useShellText();
  return (
    <article className="grid overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm lg:grid-cols-2">
      <PostImage post={post} sizes={POST_IMAGE_SIZES.featured} className="h-full" priority={priority} />
      <div className="flex flex-col justify-center p-6 sm:p-10">
        <div className="flex flex-wrap items-center gap-3">
          <span className="rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">{t("blog.featured")}</span>
          <CategoryLabel category={post.category} />
        </div>
        <Heading className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{post.title}</Heading>
        <p className="mt-3 text-lg text-muted">{post.excerpt}</p>
        <PostMeta post={post} className="mt-4" />
        <div className="mt-6">
          <Link
            to={post.href}
            className={buttonClasses("primary")}
            aria-label={t("blog.readArticleLabel", { title: post.title })}
          >
            {t("blog.readArticle")}
          </Link>
        </div>
      </div>
    </article>
  );
}
