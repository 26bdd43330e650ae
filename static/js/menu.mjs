// Disclosure menus: a button [data-menu="ID"] (aria-expanded, aria-controls) shows and
// hides the panel #ID. The board's menu (static/ui/board/render.py build_menu) is one.
//   - the button opens and closes it; focus goes to the panel's first control;
//   - Escape closes it and sends "menu-closed" (bubbling, cancelable) from the button: a
//     listener that puts the focus where the play is cancels it (the board's menu: the
//     next thing to do, page_input.py); else the focus goes back to the button;
//   - a click outside it, or on one of its [data-menu-close] items (after that item's own
//     action has run), closes it.
// Only the open/closed state lives here: what an item does is its own handler's.

let open = null; // { button, panel } of the menu shown

function close(refocus) {
  if (!open) return;
  const { button, panel } = open;
  open = null;
  panel.hidden = true;
  button.setAttribute("aria-expanded", "false");
  if (refocus && button.dispatchEvent(new CustomEvent("menu-closed", { bubbles: true, cancelable: true }))) {
    button.focus();
  }
}

function show(button, panel) {
  close(false);
  open = { button, panel };
  panel.hidden = false;
  button.setAttribute("aria-expanded", "true");
  const first = panel.querySelector("button, summary, [href], select, input");
  if (first) first.focus();
}

document.addEventListener("click", (event) => {
  const t = event.target instanceof Element ? event.target : null;
  const button = t && t.closest("[data-menu]");
  if (button) {
    const panel = document.getElementById(button.getAttribute("data-menu"));
    if (!panel) return;
    if (open && open.button === button) close(false);
    else show(button, panel);
    return;
  }
  if (!open) return;
  if (!open.panel.isConnected || !(t && open.panel.contains(t)) || t.closest("[data-menu-close]")) close(false);
});

// Escape first (capture): the menu closes, and the game's keys do not see it.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !open) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  close(true);
}, true);

// The focus leaving the menu (Tab past its end, a click elsewhere) closes it.
document.addEventListener("focusin", (event) => {
  if (!open) return;
  const t = event.target;
  if (t instanceof Node && (open.panel.contains(t) || open.button.contains(t))) return;
  close(false);
});

export const menu = { close: () => close(false), isOpen: () => open !== null };
(globalThis.generala ||= {}).menu = menu;
export default menu;
