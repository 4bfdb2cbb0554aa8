import type { PreviewNoticeText } from "~/features/content/components/preview-notice";
import { catalogMessage } from "~/features/i18n/messages.server";
import { formatLongDate } from "~/platform/dates";

// What a private preview link's banner and title say, in the previewed document's language (the
// catalogs' `preview.*`): its address may be another language's (a German post's link is under the
// English blog), its words and dates are the document's.

export type PreviewNotice = PreviewNoticeText & {
  /** The page's title in its head: "Preview: " and the title its public page would have (`title`). */
  title: string;
};

/** A page's or a position's saved draft. */
export function documentPreviewNotice(
  tag: string,
  preview: { kind: "page" | "position"; path: string; title: string; expiresAt: string },
): PreviewNotice {
  return {
    heading: catalogMessage(tag, "preview.heading"),
    text: catalogMessage(tag, "preview.documentDraft", {
      kind: preview.kind,
      path: preview.path,
      date: formatLongDate(preview.expiresAt, tag),
    }),
    title: catalogMessage(tag, "preview.title", { title: preview.title }),
  };
}

/** A post's draft, or its version scheduled for `publishedDate` (shown in UTC). */
export function postPreviewNotice(
  tag: string,
  preview: { state: "draft" | "scheduled"; publishedDate: string; title: string; expiresAt: string },
): PreviewNotice {
  const when =
    preview.state === "scheduled"
      ? catalogMessage(tag, "preview.postScheduled", {
          date: formatLongDate(preview.publishedDate, tag),
          time: preview.publishedDate.slice(11, 16),
        })
      : catalogMessage(tag, "preview.postDraft");
  const access = catalogMessage(tag, "preview.postAccess", { date: formatLongDate(preview.expiresAt, tag) });
  return {
    heading: catalogMessage(tag, "preview.heading"),
    text: `${when} ${access}`,
    title: catalogMessage(tag, "preview.title", { title: preview.title }),
  };
}
