// Where a post stands, as the back office names it. Visitors see only "published" posts.

export const POST_STATES = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
} as const;

export type PostState = keyof typeof POST_STATES;

export function isPostState(value: string): value is PostState {
  return Object.hasOwn(POST_STATES, value);
}

/** A post is scheduled while published with a date ahead; unpublished once taken off the site. */
export function postStateOf(
  post: { published: boolean; published_date: string; unpublished_at: string | null },
  now: number = Date.now(),
): PostState {
  if (post.published) return Date.parse(post.published_date) <= now ? "published" : "scheduled";
  return post.unpublished_at ? "unpublished" : "draft";
}
