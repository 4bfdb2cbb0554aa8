import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view";

// The post body's code editor (CodeMirror 6): the markup's headings, lists, links and emphasis
// highlighted, line numbers, undo. It takes over from the plain textarea the page is served with,
// writing every change back into it, so the form posts the same field either way. Loaded only by
// the post editor, on demand.

export function mountMarkupEditor(
  textarea: HTMLTextAreaElement,
  options: { labelledBy: string; describedBy?: string; onChange: (text: string) => void },
): () => void {
  const view = new EditorView({
    parent: textarea.parentElement!,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        markdown(),
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        placeholder(textarea.placeholder),
        EditorView.contentAttributes.of({
          "aria-labelledby": options.labelledBy,
          ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}),
          "aria-multiline": "true",
        }),
        EditorView.theme({
          "&": { minHeight: "28rem", fontSize: "0.875rem", backgroundColor: "white" },
          ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", lineHeight: "1.6" },
          "&.cm-focused": { outline: "2px solid #1d4ed8", outlineOffset: "2px" },
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          textarea.value = update.state.doc.toString();
          textarea.dispatchEvent(new Event("input", { bubbles: true }));
          options.onChange(textarea.value);
        }),
      ],
    }),
  });
  textarea.hidden = true;
  return () => {
    textarea.hidden = false;
    view.destroy();
  };
}
