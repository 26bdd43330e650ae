# The page's words (English). Box and option ids are those of RULES.md; the
# engine's view model carries ids and numbers only.

BOXES = {
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours",
    "fives": "Fives", "sixes": "Sixes",
    "straight": "Straight", "full-house": "Full house", "four-kind": "Four of a kind",
    "generala": "Generala", "double-generala": "Double Generala",
    "small-general": "Small General", "big-general": "Big General", "five-kind": "Five alike",
    "pair": "One pair", "two-pairs": "Two pairs", "three-kind": "Three of a kind",
    "small-straight": "Small straight", "large-straight": "Large straight",
    "chance": "Chance", "general": "General",
}

OPTIONS = {
    "served_bonus": "Served bonus",
    "generala_points": "Generala points",
    "double_generala": "Double Generala box",
    "double_points": "Double Generala points",
    "straight_wrap": "3-4-5-6-1 is a straight",
    "straight_any_five": "Any five different faces are a straight",
    "ace_as_two": "Ace counts as two",
    "served_generala_wins": "Served Generala wins",
    "big_general_wins": "Big General wins",
    "aces_wild": "Aces wild",
    "stake_per_point": "Stake per point",
}

AUTO_WINS = {
    "served-generala": "a served Generala (five alike on the first roll)",
    "big-general": "a Big General (five alike on the first roll)",
}

RULES = {
    "argentine": [
        "Five dice, eleven boxes. On your turn roll up to three times; before each new roll "
        "hold the dice you want to keep. Then fill one open box of your sheet.",
        "Ones to Sixes score the sum of the dice showing that face. Straight 20, Full house 30, "
        "Four of a kind 40, Generala (five alike) 50 by default, Double Generala (a second "
        "five alike) 100.",
        "Made on the first roll (served), a straight, full house or four of a kind earns the "
        "served bonus. A served Generala wins the game at once, unless your Generala box is "
        "scratched.",
        "A box the dice earn nothing in can still be filled: it is scratched (—, worth 0). "
        "Who starts: every side rolls the five dice, lowest total first.",
    ],
    "puerto-rican": [
        "Five dice, ten frames. Roll up to three times, holding dice between rolls, then "
        "fill one box.",
        "Ones to Sixes score the sum of that face. Straight 25 on the first roll, 20 later; "
        "Full house 35 / 30; Four of a kind 45 / 40; Small General (five alike on roll 2 or 3) 60.",
        "Aces wild: in a straight a 1 may count as a 2 or a 6. A Big General (five alike on the "
        "first roll) wins the game at once.",
        "With a stake, the winner receives from each other side the point difference times the "
        "stake; after a Big General at least 100 points' worth. Lowest roll-off total starts.",
    ],
    "double": [
        "Ten dice, five turns. Roll up to three times, holding any of the ten dice between rolls.",
        "Then choose two open boxes: the game proposes the best split of the ten dice into two "
        "groups of five, one for each box. Move dice between the groups if you like, then confirm.",
        "Ones to Sixes: the sum of that face in the group. Full house: the sum of the five dice. "
        "Small General (1-2-3-4-5) 21, Big General (2-3-4-5-6) 30, Five alike 50. No bonus, no "
        "automatic win. Lowest roll-off total starts.",
    ],
    "bulgarian": [
        "Five dice, fifteen boxes. Roll up to three times, holding dice between rolls, then "
        "fill one box.",
        "The mandatory part, Ones to Sixes: three of the face is par (O), each die more scores "
        "+face, each die fewer −face. These boxes are never scratched. If the mandatory part is "
        "negative in the end, a further −50 applies.",
        "Combinations: One pair (2 × face), Two pairs (sum of the four), Three of a kind, Four "
        "of a kind (3× and 4× the face), Full house (sum), Small straight 1-2-3-4-5 15, Large "
        "straight 2-3-4-5-6 20, Chance (sum), General (five alike) 5 × face + 50.",
        "Who starts: every player rolls one die, highest starts.",
    ],
}

SUBTOTALS = {
    "numbers": "Numbers",
    "mandatory": "Mandatory part",
    "penalty": "Penalty (negative mandatory part)",
    "combinations": "Combinations",
    "total": "Total",
}


def box(name):
    return BOXES.get(name, name)


def option(name):
    return OPTIONS.get(name, name)


def option_value(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def ordinal(n):
    if n is None:
        return ""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return str(n) + suffix


def points(n):
    return "1 point" if n == 1 else str(n) + " points"


def dice_text(dice):
    return " ".join(str(d) for d in dice)


def side_label(view, i):
    side = view["sides"][i]
    return side["name"]


def turn_line(view):
    if view["over"]:
        return "Game over"
    return "Turn " + str(view["round"]) + " of " + str(view["turns"])


def whose_turn(view):
    side = view["sides"][view["current"]]
    if len(side["members"]) > 1:
        return side["name"] + ": " + view["player"] + " to play"
    return view["player"] + " to play"


def announce(view):
    """The sentence for the live region after an action (view['last'])."""
    last = view.get("last")
    if not last:
        return ""
    kind = last.get("type")
    if kind == "roll":
        left = last["rolls_left"]
        return ("Rolled " + dice_text(last["dice"]) + ". "
                + (str(left) + " roll" + ("" if left == 1 else "s") + " left." if left else "No rolls left."))
    if kind == "auto-win":
        side = side_label(view, (view.get("auto_win") or {}).get("side", 0))
        return (side + " rolled " + dice_text(last["dice"]) + ": "
                + AUTO_WINS.get(last["kind"], last["kind"]) + ". " + side + " wins!")
    if kind == "hold":
        held = last.get("held") or []
        if not held:
            return "No dice held."
        return "Holding dice " + ", ".join(str(i + 1) for i in held) + "."
    if kind == "score":
        parts = [box(b) + " " + points(p) for b, p in zip(last["boxes"], last["points"])]
        text = side_label(view, last["side"]) + " scored " + ", ".join(parts) + "."
        if last.get("over"):
            return text + " Game over. " + ranking_sentence(view)
        return text + " " + whose_turn(view) + "."
    if kind == "undo":
        return "Undone. " + whose_turn(view) + "."
    return ""


def ranking_sentence(view):
    order = sorted(range(len(view["sides"])), key=lambda i: (view["sides"][i]["place"] or 99, i))
    return "; ".join(ordinal(view["sides"][i]["place"]) + " " + view["sides"][i]["name"] + " "
                     + str(view["sides"][i]["total"]) for i in order) + "."


def cell_preview(p, mandatory):
    if mandatory:
        return "O" if p == 0 else ("+" + str(p) if p > 0 else "−" + str(-p))
    return str(p)


def money(amount):
    if amount == int(amount):
        return str(int(amount))
    return "%.2f" % amount
