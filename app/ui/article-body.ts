/** How rendered article markup looks: a post's body (its page, the editor's preview) and a position's description. */
export const ARTICLE_BODY_CLASSES = [
  "text-lg leading-8 text-slate-800",
  "[&_h2]:mt-12 [&_h2]:text-3xl [&_h2]:font-bold [&_h2]:tracking-tight",
  "[&_h3]:mt-10 [&_h3]:text-2xl [&_h3]:font-semibold [&_h4]:mt-8 [&_h4]:text-xl [&_h4]:font-semibold",
  "[&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6",
  "[&_li]:mt-1 [&_li_ol]:mt-1 [&_li_ul]:mt-1",
  "[&_blockquote]:mt-6 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-600 [&_blockquote]:pl-5 [&_blockquote]:text-slate-700 [&_blockquote]:italic",
  "[&_pre]:mt-6 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-slate-900 [&_pre]:p-5 [&_pre]:text-sm [&_pre]:leading-6 [&_pre]:text-slate-100",
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:text-[0.9em]",
  "[&_li_a]:font-medium [&_li_a]:text-brand-700 [&_li_a]:underline [&_p_a]:font-medium [&_p_a]:text-brand-700 [&_p_a]:underline",
].join(" ");
