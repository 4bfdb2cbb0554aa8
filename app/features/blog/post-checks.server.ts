import { escapeText } from "entities";
import type { Kysely, Transaction } from "kysely";
import { contentTypes } from "~/features/content/content-types";
import { checkDraft, type DraftReference, type PublishProblem } from "~/features/content/publish-checks.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { postPath } from "~/features/blog/posts";
import type { Database } from "~/db/schema";

// A post through the checks it must pass before it goes live: its title (the page's one main
// heading) and its body as the public renderer draws them, its image, each problem named by the
// field it is in.

type Db = Kysely<Database> | Transaction<Database>;

const labels = contentTypes.post.fieldLabels;

/** Every problem that keeps `post` from going live; none when it may. `id` is undefined for a post not saved yet. */
export async function checkPostBeforePublish(
  db: Db,
  post: { id?: string; slug: string | null; title: string; content: string; image_url: string | null },
): Promise<PublishProblem[]> {
  const references: DraftReference[] = [];
  if (post.image_url)
    references.push({ where: { field: "image_url", label: labels.image_url! }, kind: "image", url: post.image_url });
  const ownPath = post.slug || post.id ? postPath({ slug: post.slug, id: post.id ?? "" }) : null;
  return checkDraft(db, {
    pieces: [
      { where: { field: "title", label: labels.title! }, html: `<h1>${escapeText(post.title)}</h1>` },
      // Drawn as the post page draws it, without the variants of its images (the checks read the image's own address).
      { where: { field: "content", label: labels.content! }, html: `<div>${renderMarkup(post.content)}</div>` },
    ],
    references,
    ownPath,
  });
}
