// The banner over a private preview link's page (a post's, a page's or a position's draft): that
// it is not published, and who can see it until when, in the previewed document's language.

export type PreviewNoticeText = { heading: string; text: string };

export function PreviewNotice({ notice, className = "" }: { notice: PreviewNoticeText; className?: string }) {
  return (
    <div role="status" className={`rounded-xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-950 ${className}`}>
      <p className="font-semibold">{notice.heading}</p>
      <p className="mt-1 text-sm">{notice.text}</p>
    </div>
  );
}
