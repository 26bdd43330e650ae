// The Bot lab's code editor: CodeMirror 6 with Python, bundled by tools/build.py with
// esbuild into vendor/codemirror/<version>/code-editor.mjs (no CDN). The page's CSP
// has no 'unsafe-inline' for styles, and CodeMirror (style-mod) writes a <style> element
// into a document but constructable style sheets (adoptedStyleSheets, which the CSP does
// not govern) into a shadow root: so the editor lives in a shadow root of `parent`.
// Its looks are the theme below, from the page's CSS variables (they inherit into it).
import { EditorView, basicSetup } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { keymap } from "@codemirror/view";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { python } from "@codemirror/lang-python";

/** An editor in `parent` holding `doc`; `label` names it for screen readers. Tab indents;
 *  Escape then Tab (or Ctrl-M) leaves it, as CodeMirror documents. */
const theme = EditorView.theme({
  "&": { color: "var(--fg, #1d1b16)", backgroundColor: "var(--card, #fff)", fontSize: "0.9rem",
    minHeight: "16rem" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" },
  "&.cm-focused": { outline: "3px solid var(--focus, #0b57a4)", outlineOffset: "-3px" },
  ".cm-gutters": { backgroundColor: "var(--card, #fff)", color: "var(--muted, #5b5648)", border: "none" },
  ".cm-content": { caretColor: "var(--fg, #1d1b16)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent, #1f6f43) 8%, transparent)" },
});

// Python's colours from the page's CSS (static/css/botlab.css: light and dark, each
// 4.5:1 or more against the editor's background).
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword],
    color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--code-number)" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)],
    color: "var(--code-def)" },
  { tag: tags.invalid, color: "var(--danger)" },
]);

export function createEditor(parent, doc, label, onChange) {
  const root = parent.shadowRoot || parent.attachShadow({ mode: "open" });
  const mount = document.createElement("div");
  root.replaceChildren(mount);
  const view = new EditorView({
    doc,
    root,
    parent: mount,
    extensions: [
      theme,
      syntaxHighlighting(highlight),
      // The editor grows with its code and wraps long lines: no scrolling region of its
      // own that the keyboard could not reach (axe: scrollable-region-focusable).
      EditorView.lineWrapping,
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
