# The daily challenge's share text, worded in the page's language from the engine's
# share data (generala/modes/daily.py `share`: the game, the date, late, played again, the
# score, perfect play's score, one mark a box and the row length). It tells no die and no box's points.
# Plain Python: the unit tests word it in the four languages (tests/unit/golden/).
from words import words

SYMBOLS = {"well": "\U0001f7e9", "poorly": "\U0001f7e8", "scratched": "\u2b1b", "open": "\u2b1c"}


def share_text(share):
    """The text copied or sent with the share sheet."""
    head = words.t("daily.share_head", game=words.title(share["variant"]), date=share["date"])
    if share["late"]:
        head = head + " " + words.t("daily.share_late")
    if share.get("again"):
        head = head + " " + words.t("daily.played_again")
    lines = [head, words.t("daily.share_score", score=words.num(share["score"]),
                           perfect=words.num(share["perfect"]))]
    marks = [SYMBOLS.get(m, SYMBOLS["open"]) for m in share["marks"]]
    row = share["row"]
    for i in range(0, len(marks), row):
        lines.append("".join(marks[i:i + row]))
    return "\n".join(lines)
