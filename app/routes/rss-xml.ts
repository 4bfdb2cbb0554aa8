// PLACEHOLDER: the blog issue builds the feed.
export function loader() {
  return new Response("Not yet", { status: 404 });
}
