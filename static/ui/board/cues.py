# What the table shows and plays for what just happened, read from the view's events
# (the engine's list of what its last action made happen: generala/seen/view.py `events`).
# Plain Python (no js, no DOM): unit-tested in CPython (tests/unit/test_ui_cues.py);
# render.py plays what these functions return (static/js/dice-motion.mjs, sound.mjs,
# moments.mjs), and only for a view drawn on the board right after an action: never
# for a game just opened (a stored view, a loaded one), never in a replay (its own
# screen, replayview.py, celebrates nothing).
#
#   rolled(events)         the dice positions a roll threw (they land on their faces), or None
#   held_moved(events)     the dice positions whose hold changed (they slide between rows)
#   ended(events)          the game ended (Play again is focused, the card in sight)
#   moments(view)          [(kind, data)]: ("tick", None) a box filled; ("celebrate", card)
#                          five alike, an automatic win, the end of the game (the biggest
#                          one); ("hand_over", card) the turn passed from one person's side
#                          to another person's (hot seat)
from words import words


def rolled(events):
    """The positions of the dice thrown by the rolls among ``events``, or None when no
    die was rolled."""
    thrown = None
    for event in events or ():
        if event.get("kind") == "roll":
            thrown = sorted(set(thrown or ()) | set(event.get("rolled") or ()))
    return thrown


def held_moved(events):
    """The positions of the dice whose hold changed among ``events`` (the hold events'
    ``changed``), in order, each once."""
    moved = []
    for event in events or ():
        if event.get("kind") == "hold":
            for i in event.get("changed") or ():
                if i not in moved:
                    moved.append(i)
    return moved


def ended(events):
    """The game ended among ``events`` (a ``game_over`` event)."""
    return any(event.get("kind") == "game_over" for event in events or ())


def person(view, side):
    """Side ``side`` is played by a person (the view's sides[i].computer is null)."""
    sides = view["sides"]
    return side is not None and 0 <= side < len(sides) and sides[side].get("computer") is None


def moments(view):
    """What the events of ``view`` make the table show and play, in order."""
    events = view.get("events") or []
    kinds = {}
    for event in events:
        kinds.setdefault(event.get("kind"), event)
    out = []
    if "box_filled" in kinds:
        out.append(("tick", None))
    card = celebration(view, kinds)
    if card is not None:
        out.append(("celebrate", card))
    elif "hand_over" in kinds:
        event = kinds["hand_over"]
        if person(view, event.get("from")) and person(view, event.get("side")):
            player = event.get("player") or view["sides"][event["side"]]["name"]
            out.append(("hand_over", {"name": player, "text": words.t("table.pass", player=player)}))
    return out


def celebration(view, kinds):
    """The card of the biggest moment among the events (by kind), or None: an automatic
    win, else the end of the game, else five alike thrown (a roll's, not dice entered
    from the table: a score-sheet game celebrates its automatic win and its end only).
    ``title`` is the card's big line, ``line`` its small one, ``text`` what the live
    region says."""
    sides = view["sides"]
    if "auto_win" in kinds:
        event = kinds["auto_win"]
        name = sides[event["side"]]["name"]
        what = words.AUTO_WINS.get(event["win"], event["win"])
        said = words.t("table.you_auto") if words.is_you(view, event["side"]) else words.t("table.auto", name=name)
        hand = words.WIN_HANDS.get(event["win"])  # the game's own name for this hand
        if hand:  # named big, the win under it
            title = words.t("table.hand", hand=hand)
            return {"kind": "auto", "title": title, "line": said, "text": title + " " + said}
        return {"kind": "auto", "title": said, "line": what[:1].upper() + what[1:], "text": said}
    if "game_over" in kinds:
        if len(sides) == 1:
            text = words.t("table.final", points=words.points(sides[0]["total"]))
        else:
            first = [sides[i]["name"] for i in kinds["game_over"].get("winners") or ()]
            text = words.t("table.first", names=words.and_list(first))
        return {"kind": "over", "title": words.t("turn.over"), "line": text, "text": text}
    if "five_alike" in kinds and "roll" in kinds:
        event = kinds["five_alike"]
        hand = event.get("hand")
        title = words.t("table.hand", hand=words.box(hand)) if hand else words.t("table.five")
        line = words.t("table.served") if event.get("served") else ""
        return {"kind": "five", "title": title, "line": line, "text": title + (" " + line if line else "")}
    return None
