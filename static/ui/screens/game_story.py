# The game's story in win chances, under the game-over card of a game of two sides or more
# (the card stays whole in sight, Play again in reach; the story is read below it):
# the turning point and each person's costliest box in words, a small chart of every
# side's chance to win box by box (inline SVG drawn with DOM calls: a line and a dash of
# its own per side, the turning point marked), and the same figures as a table. The
# figures are the engine's ({"op": "story"}: generala/ai/story.py), asked once per
# finished game when its card is drawn. None where the engine gives no help (a daily
# challenge is told only once it is over) or where the rules' table is not shipped.
from engine import engine_client
from players.win_chances import percent
from screens.chart import node
from words import words
from web.dom import clear, el
from web.screen_switch import spawn

W, H = 320, 150
PAD_L, PAD_R, PAD_T, PAD_B = 34, 8, 8, 18


def boxes_text(boxes):
    return " + ".join(words.box(b) for b in boxes)


def point_label(view, point):
    """What the point is: "Ana: Full house", or the automatic win."""
    name = view["sides"][point["side"]]["name"]
    if point.get("auto_win"):
        return words.t("story.auto", name=name, what=words.AUTO_WINS.get(point["auto_win"], point["auto_win"]))
    return words.t("story.by", name=name, boxes=boxes_text(point["boxes"]))


def chart(view, story):
    """Every side's chance to win, from the start to the last box: an <svg>."""
    series = [story["start"]] + [p["chances"] for p in story["points"]]
    n = len(series)
    label = words.t("story.chart")
    svg = node("svg", {"viewBox": "0 0 " + str(W) + " " + str(H), "class": "story-chart", "role": "img",
                       "aria-label": label, "id": "story-chart", "data-points": n})
    svg.appendChild(node("title", None, label))

    def x(i):
        return PAD_L + (W - PAD_L - PAD_R) * (i / (n - 1) if n > 1 else 0.5)

    def y(p):
        return PAD_T + (H - PAD_T - PAD_B) * (1 - p)

    for pct in (0, 50, 100):
        at = round(y(pct / 100), 1)
        svg.appendChild(node("line", {"x1": PAD_L, "y1": at, "x2": W - PAD_R, "y2": at,
                                      "class": "grid" if pct else "axis"}))
        svg.appendChild(node("text", {"x": PAD_L - 4, "y": at + 3.5, "text-anchor": "end", "class": "tick"},
                             words.percent(pct)))
    svg.appendChild(node("text", {"x": PAD_L, "y": H - 4, "class": "tick"}, words.t("story.start")))
    svg.appendChild(node("text", {"x": W - PAD_R, "y": H - 4, "text-anchor": "end", "class": "tick"}, n - 1))
    turning = story.get("turning")
    if turning is not None:
        at = round(x(turning["index"] + 1), 1)
        svg.appendChild(node("line", {"x1": at, "y1": PAD_T, "x2": at, "y2": H - PAD_B, "class": "turning"}))
    for side in range(len(view["sides"])):
        points = " ".join(str(round(x(i), 1)) + "," + str(round(y(s[side]), 1)) for i, s in enumerate(series))
        line = node("polyline", {"points": points, "class": "line s" + str(side % 8), "fill": "none",
                                 "data-side": side})
        line.appendChild(node("title", None, view["sides"][side]["name"]))
        svg.appendChild(line)
    return svg


def legend(view):
    ul = el("ul", "story-legend", None, {"aria-hidden": "true"})  # the table says the same
    for side, s in enumerate(view["sides"]):
        li = el("li")
        li.appendChild(el("span", "swatch s" + str(side % 8)))
        li.appendChild(el("span", None, s["name"]))
        ul.appendChild(li)
    return ul


def table(view, story):
    """The chart's figures: one row for the start and one per box filled."""
    details = el("details", "story-details")
    details.appendChild(el("summary", None, words.t("story.table")))
    t = el("table", "story-table", None, {"id": "story-table"})
    head = el("tr")
    head.appendChild(el("th", None, words.t("story.box"), {"scope": "col"}))
    for s in view["sides"]:
        head.appendChild(el("th", "num", s["name"], {"scope": "col"}))
    thead = el("thead")
    thead.appendChild(head)
    t.appendChild(thead)
    tbody = el("tbody")
    turning = story.get("turning")
    rows = [(words.t("story.start"), story["start"], None)]
    rows += [(point_label(view, p), p["chances"], k) for k, p in enumerate(story["points"])]
    for label, chances, k in rows:
        is_turn = turning is not None and k == turning["index"]
        tr = el("tr", "turning" if is_turn else None, None, {"data-point": "start" if k is None else k})
        tr.appendChild(el("th", None, label, {"scope": "row"}))
        for p in chances:
            tr.appendChild(el("td", "num", percent(p), {"data-chance": p}))
        tbody.appendChild(tr)
    t.appendChild(tbody)
    details.appendChild(t)
    return details


def turning_text(view, turning):
    name = view["sides"][turning["side"]]["name"]
    values = {"name": name, "round": turning["round"], "boxes": boxes_text(turning["boxes"]),
              "before": percent(turning["before"]), "after": percent(turning["after"])}
    if not turning["boxes"]:
        return words.t("story.turning_auto", **values)
    return words.t("story.turning_choice" if turning["cause"] == "choice" else "story.turning_roll", **values)


def costliest_text(view, c):
    values = {"name": view["sides"][c["side"]]["name"], "round": c["round"], "boxes": boxes_text(c["boxes"]),
              "best": boxes_text(c["best"]), "pct": percent(c["cost"])}
    return words.t("story.you_costliest" if words.is_you(view, c["side"]) else "story.costliest", **values)


class GameStory:
    def __init__(self, game, board, keeper):
        """``game``: the controller (its view); ``board`` the board (its game-over card);
        ``keeper`` the stored game on the board (its id: a story per game)."""
        self.game = game
        self.keeper = keeper
        self.section = el("section", "story", None, {"id": "game-story", "aria-labelledby": "story-title"})
        self.told_for = None  # the game whose story is in the section (or on its way)
        self.story = None
        self.view = None
        board.parts.add("story", self.draw)

    def draw(self, view, ui, board):
        """The board's part (board_parts.py): the story under a finished game's card."""
        section = self.section
        if not view["over"] or len(view["sides"]) < 2 or not view.get("help"):
            if section.parentNode is not None:
                section.remove()
            return
        key = (self.keeper.gid, len(view["sides"]), view.get("moves"))
        if self.told_for != key:
            self.told_for = key
            self.story = None
            self.view = view
            clear(section)
            section.setAttribute("aria-busy", "true")
            section.appendChild(el("h3", None, words.t("story.title"), {"id": "story-title"}))
            section.appendChild(el("p", "story-wait", words.t("story.wait")))
            spawn(self.ask(key))
        after = section.previousElementSibling
        if section.parentNode is None or after is None or not after.isSameNode(board.over):
            board.over.parentNode.insertBefore(section, board.over.nextSibling)

    async def ask(self, key):
        reply = await engine_client.call({"op": "story"}, quiet=("NeedTable",))
        if self.told_for != key:
            return  # another game's card by now
        story = reply.get("story") if reply.get("ok") else None
        if not story or not story.get("points"):
            self.section.remove()
            self.section.removeAttribute("aria-busy")
            return
        self.story = story
        self.fill()

    def fill(self):
        view, story, section = self.view, self.story, self.section
        clear(section)
        section.appendChild(el("h3", None, words.t("story.title"), {"id": "story-title"}))
        if story.get("turning"):
            section.appendChild(el("p", "story-turning", turning_text(view, story["turning"]),
                                   {"id": "story-turning", "data-cause": story["turning"]["cause"]}))
        for c in story.get("costliest") or []:
            section.appendChild(el("p", "story-costliest", costliest_text(view, c), {"data-side": c["side"]}))
        figure = el("figure", "story-figure")
        figure.appendChild(chart(view, story))
        figure.appendChild(legend(view))
        section.appendChild(figure)
        section.appendChild(table(view, story))
        section.removeAttribute("aria-busy")
        section.setAttribute("data-told", "true")

    def relabel(self):
        if self.story is not None and self.view is not None:
            self.fill()
        elif self.section.firstChild is not None:
            self.section.firstChild.textContent = words.t("story.title")

