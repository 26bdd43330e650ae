# The words of the home screen's lists of saved games, from a stored entry (no DOM:
# unit-tested in CPython; saved_games.py builds the list items from them). ``when``
# is the entry's time as the page words it (saves.when: the browser's locale).
from words import words


def game_title(entry):
    """The game's title in the page's language (the stored title as a fallback)."""
    return words.title(entry.get("variant"), entry.get("title") or words.t("save.game"))


def continue_meta(entry, when):
    """Under a game in progress: its round ("Turn 3 of 11 · ..."), or only when it was
    played when the round is not known (a list field that was not valid)."""
    if entry.get("round") is None or entry.get("turns") is None:
        return when
    return words.t("save.turn", round=entry.get("round"), turns=entry.get("turns"), when=when)


def result_line(entry):
    """A finished game's result: each side with its place and total, first place first
    (a place not known goes last)."""
    result = sorted(entry.get("result") or [], key=lambda r: r[1] or 99)
    return ", ".join(words.t("save.result", place=words.ordinal(r[1]), name=r[0], total=r[2]) for r in result)
