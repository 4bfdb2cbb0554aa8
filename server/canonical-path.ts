// The server's reading of a request's path lives with the app's code, which reads URLs in texts
// the same way (app/lib/canonical-path.ts).
export { canonicalPath, hasDotSegments } from "~/lib/canonical-path";
