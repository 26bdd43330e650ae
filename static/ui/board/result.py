# The game-over card (#over: the section render.Board.build makes, drawn here from the
# engine's view once the game is over): the winner named big, the moment that decided
# the game (the view's `decider`, decided by the engine from the game's history), a
# podium for places 1-3 (a medal mark and a height each, not colour alone), then the
# other places, each side's whole name and total, shared places said as such (the
# places are the view's `sides[i].place`), who pays whom, and Play again (one tap: the
# same game, `op again`) before New game. The share panel joins the card as a board
# part (replayview.py). Its looks: static/css/result.css.
import js

from words import words
from web.clock import Frame
from web.dom import clear, el

FOCUS_ONLY = '{"preventScroll": true}'  # focus() that leaves the scrolling to Sight
BLOCK_END = '{"block": "end"}'
BLOCK_START = '{"block": "start"}'


def pts(n):
    """"{n} points" in the page's language, a negative n with the minus sign (U+2212)."""
    return words.points(n).replace("-", "\u2212")


def winner_line(view):
    """The card's big line: the winner, the winners sharing first place, or a one-side
    game's final score."""
    sides = view["sides"]
    if len(sides) == 1:
        return words.t("table.final", points=pts(sides[0]["total"]))
    first = [s["name"] for s in sides if s["place"] == 1]
    if len(first) > 1:
        return words.t("sheet.tie_first", names=words.and_list(first))
    if any(s["place"] == 1 and s.get("you") for s in sides):
        return words.t("sheet.you_win")
    return words.t("sheet.winner", name=first[0])


def boxes_text(moment):
    """The boxes of the deciding turn (two with ten dice), "served" when it was."""
    text = " + ".join(words.box(b) for b in moment.get("boxes") or [])
    return words.t("over.decider_served", boxes=text) if moment.get("served") else text


def decider_text(view):
    """The deciding moment in words, or None (the engine found none, or a view stored
    before the engine said it)."""
    moment = view.get("decider")
    if not moment:
        return None
    sides = view["sides"]
    kind = moment.get("kind")
    name = sides[moment["side"]]["name"]
    turn = moment.get("round")
    you = words.is_you(view, moment["side"])  # the person at this device: worded for "you"
    if kind == "auto_win":
        what = words.AUTO_WINS.get(moment.get("win"), moment.get("win"))
        return words.t("over.you_auto" if you else "over.decider_auto", round=turn, name=name, what=what)
    values = {"round": turn, "name": name, "points": pts(moment.get("points") or 0),
              "boxes": boxes_text(moment)}
    if kind == "lead":
        return words.t("over.you_lead" if you else "over.decider_lead", **values)
    if kind == "level":
        return words.t("over.you_level" if you else "over.decider_level", **values)
    if kind == "best":
        if len(sides) == 1:
            return words.t("over.decider_solo", **values)
        return words.t("over.you_best" if you else "over.decider_best", **values)
    return None


def place_item(view, i, shared):
    """One side's line of the ranking: its place (a medal on the podium), the whole name,
    the total."""
    side = view["sides"][i]
    place = side["place"]
    li = el("li", "place-" + str(place) + (" step" if place <= 3 else ""), None,
            {"data-side": i, "data-place": place})
    rank = el("span", "rank")
    if place <= 3:
        rank.appendChild(el("span", "medal", str(place), {"aria-hidden": "true"}))
    rank.appendChild(el("span", "rank-text", words.ordinal(place)))
    if shared:
        rank.appendChild(el("span", "rank-tie", words.t("sheet.shared")))
    li.appendChild(rank)
    who = el("span", "rank-who")
    who.appendChild(el("span", "rank-name", side["name"]))
    who.appendChild(el("span", "rank-total", pts(side["total"])))
    li.appendChild(who)
    return li


def draw(node, view, seen):
    """Draw the card into ``node`` (hidden while the game goes on); ``seen``: the board's
    cache of what it last drew (render.Cache.seen)."""
    sides = view["sides"]
    key = repr((view["over"], [(s["name"], s["total"], s["place"]) for s in sides],
                view.get("decider"), view["settlement"]))
    if seen.get("over") == key:
        return
    seen["over"] = key
    share = node.querySelector("#game-share")  # the share panel (replayview.py) stays in the card
    clear(node)
    if not view["over"]:
        node.hidden = True
        return
    node.hidden = False
    node.setAttribute("data-sides", str(len(sides)))
    node.appendChild(el("h3", "over-title", words.t("over.result"), {"id": "over-title"}))
    node.appendChild(el("p", "over-winner", winner_line(view), {"id": "over-winner"}))
    told = decider_text(view)
    if told:
        moment = el("p", "over-decider", None, {"id": "over-decider", "data-kind": view["decider"]["kind"]})
        moment.appendChild(el("span", "decider-label", words.t("over.decider")))
        moment.appendChild(el("span", "decider-text", told))
        node.appendChild(moment)
    # Places 1-3 stand on a podium; in rank order in the document, shared places said so.
    ranking = el("ol", "ranking podium podium-" + str(min(len(sides), 4)), None,
                 {"id": "ranking", "aria-label": words.t("over.standings")})
    counts = {}
    for s in sides:
        counts[s["place"]] = counts.get(s["place"], 0) + 1
    for i in sorted(range(len(sides)), key=lambda i: (sides[i]["place"], i)):
        ranking.appendChild(place_item(view, i, counts[sides[i]["place"]] > 1))
    node.appendChild(ranking)
    if view["settlement"]:
        node.appendChild(el("h4", None, words.t("over.settlement")))
        ul = el("ul", "settlement", None, {"id": "settlement"})
        names = [s["name"] for s in sides]
        for pay in view["settlement"]:
            ul.appendChild(el("li", None, words.t("over.pays", payer=names[pay["from"]], payee=names[pay["to"]],
                                                  amount=words.money(pay["amount"]))))
        node.appendChild(ul)
    buttons = el("div", "actions over-actions")
    if not view.get("daily"):  # a daily challenge is played once (daily_screen.py draws its end)
        buttons.appendChild(el("button", "btn primary", words.t("over.again"),
                               {"type": "button", "data-action": "again", "id": "again"}))
    buttons.appendChild(el("button", "btn", words.t("over.new"), {"type": "button", "data-action": "home"}))
    node.appendChild(buttons)
    if share is not None:
        node.appendChild(share)


class Sight:
    """Brings the card into sight at the next animation frame: once the board's parts have
    drawn theirs into it (the share panel), so its whole height is known. One frame (one
    fixed proxy, clock.py) for the page's life."""

    def __init__(self):
        self.node = None
        self.frame = Frame(self.bring)

    def show(self, node):
        self.node = node
        self.frame.request()

    def bring(self):
        node, self.node = self.node, None
        if node is None or node.hidden:
            return
        box = node.getBoundingClientRect()
        high = js.window.innerHeight
        if box.top >= 0 and box.bottom <= high:
            return
        # at once, not smoothly: no motion to switch off; a card taller than the window shows its top
        node.scrollIntoView(js.JSON.parse(BLOCK_END if box.height <= high else BLOCK_START))


SIGHT = []  # the one Sight, made at the first game's end


def ended(node):
    """The game has just ended on this board: the keyboard on Play again, and the whole
    card in sight."""
    again = js.document.getElementById("again")
    if again is not None:
        again.focus(js.JSON.parse(FOCUS_ONLY))
    if not SIGHT:
        SIGHT.append(Sight())
    SIGHT[0].show(node)
