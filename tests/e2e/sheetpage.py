"""Page object for the screens of score-sheet mode (dice entry), the paper sheet,
replays, share links and records. Extends GamePage (gamepage.py) without changing it."""
from __future__ import annotations

from gamepage import GamePage, open_setup

from generala import app

# The replay screen has drawn step n and no request is on its way.
REPLAY_AT = ("n => { const r = document.getElementById('replay');"
             " return r && !r.hidden && r.dataset.step === String(n) && !r.hasAttribute('aria-busy'); }")


class SheetPage(GamePage):
    # --- score-sheet mode ---------------------------------------------------
    def new_game(self, variant="argentine", names=("Ana", "Beto"), seed=None, options=None, teams=None,
                 sheet=True):
        """The setup form with "Play with real dice (score sheet)" set (or cleared)."""
        self.home()
        open_setup(self.page)
        self.page.set_checked("#sheet-mode", sheet)
        super().new_game(variant, names, seed=seed, options=options, teams=teams)
        if sheet:
            self.page.wait_for_selector("#entry", state="visible")

    def enter(self, dice, at=3, tap=False):
        """Enter the dice of a turn (typed, or tapped face by face) and on which roll they came."""
        p = self.page
        p.wait_for_selector("#entry", state="visible")
        if tap:
            p.click("#entry-clear")
            for d in dice:
                p.click(f'#entry [data-entry-face="{d}"]')
        else:
            p.fill("#entry-text", "".join(str(d) for d in dice))
        p.check(f'#entry input[data-entry-at="{at}"]')
        self._after(lambda: p.click("#entry-ok"))

    def paper(self, box: str, side: int) -> str:
        return self.page.inner_text(f'#paper-sheet tr[data-row="{box}"] td[data-side="{side}"]').strip()

    def paper_sum(self, key: str) -> list[str]:
        return [t.strip() for t in self.page.eval_on_selector_all(
            f'#paper-sheet tr[data-sum="{key}"] td', "els => els.map(e => e.textContent)")]

    # --- replay -----------------------------------------------------------------
    def wait_step(self, n: int):
        self.page.wait_for_function(REPLAY_AT, arg=n, timeout=15_000)

    def replay_click(self, key: str, expect: int):
        self.page.click(f'#replay [data-replay="{key}"]')
        self.wait_step(expect)

    def replay_cells(self) -> dict:
        """{(box, side): text} of the replay's sheet."""
        rows = self.page.eval_on_selector_all(
            "#replay-sheet tbody tr[data-row]",
            "trs => trs.map(tr => [tr.dataset.row, [...tr.querySelectorAll('td')].map(td => td.textContent)])")
        return {(box, i): text for box, texts in rows for i, text in enumerate(texts)}

    def replay_dice(self) -> list[int]:
        return [int(x) for x in self.page.eval_on_selector_all(
            "#replay-dice .mini-die", "els => els.map(e => e.dataset.face)")]

    def replay_totals(self) -> list[str]:
        return [t.strip() for t in self.page.eval_on_selector_all(
            '#replay-sheet tfoot tr[data-sum="total"] td', "els => els.map(e => e.textContent)")]


def cells_of(view) -> dict:
    return {(row["box"], i): cell["text"] for row in view["rows"] for i, cell in enumerate(row["cells"])}


def session_of(save) -> app.Session:
    """A CPython session with ``save`` open (what the page's engine has)."""
    s = app.Session()
    assert s.handle({"op": "load", "save": save})["ok"]
    return s
