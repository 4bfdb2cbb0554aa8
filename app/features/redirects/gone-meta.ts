import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";

export const goneMeta: MetaDescriptor[] = [
  { title: `Page removed | ${site.company}` },
  { name: "description", content: "This page has been removed." },
  { name: "robots", content: "noindex" },
];
