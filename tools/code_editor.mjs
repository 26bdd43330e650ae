// The Bot lab's code editor: CodeMirror 6 with Python, bundled by tools/build.py with
// esbuild into vendor/codemirror/<version>/code-editor.mjs (no CDN). The page's CSP
// has no 'unsafe-inline' for styles: CodeMirror's styles go in through constructable
// style sheets (adoptedStyleSheets), which the CSP does not govern.
import { EditorView, basicSetup } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { keymap } from "@codemirror/view";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

/** An editor in `parent` holding `doc`; `label` names it for screen readers. Tab indents;
 *  Escape then Tab (or Ctrl-M) leaves it, as CodeMirror documents. */
export function createEditor(parent, doc, label, onChange) {
  const view = new EditorView({
    doc,
    parent,
    extensions: [
      basicSetup,
      keymap.of([indentWithTab]),
      indentUnit.of("    "),
      python(),
      EditorView.contentAttributes.of({ "aria-label": label, "data-editor": "bot" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && onChange) onChange();
      }),
    ],
  });
  return {
    get value() { return view.state.doc.toString(); },
    set value(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setLabel(text) {
      view.contentDOM.setAttribute("aria-label", text);
    },
    focus() { view.focus(); },
    destroy() { view.destroy(); },
  };
}
