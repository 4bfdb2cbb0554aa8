import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";
import { POST_CARD, postCardPath, type PostPage } from "~/features/blog/posts";
import { absoluteUrl, pageMeta, shellTextOf, siteUrlFrom } from "~/features/site/seo";

// A post page's head, shared by the post's public page and its private preview.

type Matches = Parameters<typeof pageMeta>[0];

/** The head of "Blog Post Not Found" at `path`. */
export function postNotFoundMeta(matches: Matches, path: string): MetaDescriptor[] {
  const { t } = shellTextOf(matches);
  return pageMeta(matches, { title: t("blog.notFoundTitle"), description: t("blog.notFoundText"), path });
}

/** Title, description, canonical URL (the post's public one), social card and BlogPosting JSON-LD. */
export function postMeta(matches: Matches, post: Omit<PostPage, "html">): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(matches);
  const url = `${siteUrl}${post.href}`;
  const image = post.imageUrl ? absoluteUrl(siteUrl, post.imageUrl) : undefined;
  // Shared links show the post's own card: its title, category, author and date in the brand's look.
  const card = `${siteUrl}${postCardPath(post.href)}`;
  return pageMeta(matches, {
    title: post.title,
    description: post.excerpt,
    path: post.href,
    type: "article",
    image: {
      url: card,
      ...POST_CARD,
      alt: post.cardAlt,
    },
    feeds: { category: post.category },
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title,
        description: post.excerpt,
        image: image ? [image, card] : card,
        datePublished: post.publishedDate,
        dateModified: post.updatedAt,
        author: { "@type": "Person", name: post.author },
        publisher: {
          "@type": "Organization",
          name: site.company,
          logo: { "@type": "ImageObject", url: `${siteUrl}/favicon.svg` },
        },
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        articleSection: post.category,
        url,
      },
    ],
  });
}
