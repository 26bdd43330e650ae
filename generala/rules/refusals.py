"""Every refusal the engine gives: a stable code, and its English template.

A refusal (a :class:`~generala.rules.errors.GeneralaError`) carries a ``code`` from
:data:`CODES` and ``params``: JSON-plain values the page words in the player's
language (its word tables hold ``refusal.<code>``). The English text, for the
console and the command line, is the code's template filled with its params
(:func:`english`); a template's placeholders are its params, but for ``side``,
which goes with ``name`` (:func:`params_of`).

What params hold, by name: box ids under ``box``/``boxes`` (and ``after``/``needs``: the
other box a house rule waits for), a variant id under
``variant``, an option's name under ``option``, dice as lists of ints under
``dice``/``seeded``, a side's index under ``side`` with its name under ``name``,
numbers as numbers (``seeded``: the dice the seed gives). Three names are special:

- ``got``: a value the request or document gave that was refused, as JSON text
  cut to 60 characters (never English: it is the input itself);
- ``expected``: a type id from :data:`TYPES` (what a request field must be);
- ``cause``: the refusal behind this one, as ``{"code", "params"}`` (a save that
  is not legal says which action was refused, and why).

Lists of ids (``boxes``, ``values``, ``variants``, ...) are written joined by
commas in English; lists of numbers (dice, positions) as ``[1, 2, 3]``.
"""
from __future__ import annotations

import json
import re

#: code -> English template (``str.format`` fields named after the params).
CODES: dict[str, str] = {
    # --- the request itself (generala/app.py) ---------------------------------
    "request.not_object": "a request is a JSON object",
    "request.too_deep": "the request is refused: it nests more than {depth} levels deep",
    "request.not_json": "the request is not JSON (line {line}, column {column})",
    "request.unknown_op": "unknown op {got}",
    "request.no_fields": "{op} takes no fields, got {field}",
    "request.field_unknown": "{op} takes no field {field} (it takes: {takes})",
    "request.field_missing": "{op} needs the field {field}",
    "request.field_type": "{op}: {field} is {expected}, got {got}",
    "request.field_min": "{op}: {field} is {expected} from {min}, got {got}",
    "request.field_range": "{op}: {field} is {expected} from {min} to {max}, got {got}",
    "request.one_of": "{op} takes {first} or {second}, one of them",
    "internal.error": "the engine failed ({error})",
    # --- setting up a game ------------------------------------------------------
    "variant.unknown": "unknown variant {got}; variants: {variants}",
    "option.unknown": "{variant} has no option {got}; its options: {options}",
    "option.value": "option {option} cannot be {got}; allowed values: {values}",
    "option.number": "option {option} must be a number from 0 upward, got {got}",
    "option.on_off": "option {option} is on or off, got {got}",
    "option.name_value": "options are NAME=VALUE, got {got}",
    "rules.type": "rules come from generala.variant(...), got {got}",
    "sides.type": "sides are a list of names or Side objects, got {got}",
    "sides.count": "a game has 1 to {max} sides, got {count}",
    "side.shape": "a side is a name or an object with a name, got {got}",
    "side.fields": "a side has a name, members and a player; not {fields}",
    "side.player": "player is 'human' or a computer level, got {got}",
    "side.bot": "a bot's side has player 'bot' and a bot with a name and a source hash, got {got}",
    "name.type": "a name is text, got {got}",
    "name.empty": "a name cannot be empty",
    "name.too_long": "a name has at most {max} characters, got {length}: {got}",
    "seed.range": "a seed is a whole number from 0 to {max}, got {got}",
    "order.invalid": "an order lists every side 0-{last} once, got {got}",
    "new.sheet_seed": "a score-sheet game throws real dice: it takes no seed",
    "new.order_rolled": "the order is given only in a score-sheet game; a rolled game settles it by the roll-off",
    "game.none": "no game is open: start or load one",
    "game.over": "the game is over",
    # --- dice ------------------------------------------------------------------------
    "dice.type": "dice are a sequence of {count} faces 1-6, got {got}",
    "dice.count": "expected {count} dice, got {given}: {got}",
    "dice.face": "a die shows 1 to 6, got {got}",
    "dice.text": "dice are written as digits 1-6 such as 44126, got {got}",
    "dice.not_part": "{group} is not part of {dice}",
    "roll.range": "roll is 1, 2 or 3, got {got}",
    "roll.no_roller": "this game has no roller: pass one, or give the dice",
    "roll.score_sheet": "this game has no roller: enter the dice thrown at the table",
    "roll.none_left": "three rolls are the most a turn has: choose a box",
    "roll.all_held": "every die is held: choose a box instead of rolling",
    "roll.held_changed": "held dice cannot change: {dice} against {before}",
    "roller.face": "a scripted die shows 1 to 6, got {got}",
    "roller.exhausted": "the scripted roller has {have} dice; {asked} were asked for",
    "roller.shape": "a roller is saved as an object, got {got}",
    "roller.kind": "unknown roller {got}; known kinds: {kinds}",
    "hold.type": "hold takes dice positions, got {got}",
    "hold.position": "dice positions are 0 to {max}, got {got}",
    "hold.before_roll": "no dice to hold before the first roll",
    "hold.none_left": "no rolls left: choose a box",
    "hold.score_sheet": "dice are held only when the game rolls them; this game's dice are thrown at the table",
    "enter.rolled_game": "dice are entered only in a score-sheet game; this game rolls its own",
    "enter.twice": "dice are entered once a turn, before choosing a box",
    # --- boxes ------------------------------------------------------------------------
    "box.type": "a box is named by its id, got {got}",
    "box.unknown": "{variant} has no box {got}; its boxes: {boxes}",
    "box.filled": "{box} is already filled",
    "box.mandatory": "{box} is mandatory: it takes what the dice give",
    "box.scratch_last": "{box} can be scratched only once {after} is filled",
    "box.needs_first": "five alike cannot go into {box} while {needs} is open",
    "win.not_offered": "there is no win to take: only five alike on a turn's first roll offers it",
    "boxes.type": "boxes are named by their ids, got {got}",
    "score.before_roll": "roll before choosing a box",
    "score.one_box": "{variant} fills one box a turn: name one box",
    "score.two_boxes": "ten dice fill two boxes: name both",
    "score.split_one_box": "a split is for two boxes (boxes), not one",
    "score.scratch_type": "scratch is true or false for one box, got {got}",
    "score.scratch_pair": "with two boxes, scratch is a pair of true/false (one a box), got {got}",
    "split.ten_dice": "{variant} fills one box a turn: splits are for ten dice",
    "split.same_box": "a split fills two different boxes, got {box} twice",
    "split.type": "a split lists five dice positions, got {got}",
    "split.positions": "a split puts five different dice (0-9) in each box, got {got}",
    "split.open_boxes": "a split needs at least two open boxes",
    # --- undo, the computer, the coach ----------------------------------------------
    "undo.over": "the game is over: nothing can be undone",
    "undo.nothing": "nothing to undo",
    "undo.roll": "a roll cannot be undone: its dice are final",
    "undo.computer": "{name} is played by the computer: its move cannot be undone",
    "undo.turn_passed": "it is {next_name}'s turn now: {name}'s box cannot be undone",
    # --- the daily challenge (generala/modes/daily.py) -----------------------------------
    "daily.date": "a challenge's date is written YYYY-MM-DD, got {got}",
    "daily.no_undo": "the daily challenge has no undo",
    "daily.no_help": "the daily challenge gives no hint and no coach until it is over",
    "daily.not_daily": "the open game is not a daily challenge",
    "daily.unfinished": "the challenge is not over yet",
    "daily.again": "a daily challenge is played once: its result stays",
    "daily.future": "{date} is after today ({today}): a day to come has no challenge yet",
    "save.daily": "the saved challenge is not that day's challenge: {got}",
    "ai.person": "{name} is played by a person",
    "ai.level": "unknown computer level {got}; levels: {levels}",
    "seat.not_bot": "{name} is not played by a bot",
    "seat.move": "a bot's move keeps some of the dice or fills a box, got {got}",
    "table.needed": "the value table {table} is not loaded",
    # --- histories: actions, the roll-off, replays ---------------------------------
    "action.shape": "an action is an object such as {{\"roll\": [...]}}, got {got}",
    "action.hold": "hold lists dice positions, got {got}",
    "action.score": "not a score action: {got}",
    "action.unknown": "unknown action {got}",
    "rolloff.shape": "a roll-off round lists [side, dice] pairs, got {got}",
    "rolloff.incomplete": "the roll-off is incomplete",
    "rolloff.unsettled": "the roll-off in the history does not settle the order",
    "replay.not_fresh": "replay needs a game with no history",
    "replay.none": "no game is open for replay",
    "replay.step": "a step is 0 to {max}, got {got}",
    # --- saves ---------------------------------------------------------------------------
    "save.not_text": "the save document is not text (UTF-8)",
    "save.too_deep": "the save document is refused: it nests more than {depth} levels deep",
    "save.not_json": "the save document is not JSON (line {line}, column {column})",
    "save.not_object": "a save document is a JSON object, got {got}",
    "save.no_schema": "the document has no schema version (got {got})",
    "save.newer": "the document is from a newer version (schema {schema}; this app reads up to {max})",
    "save.schema_unknown": "schema {schema} is not known",
    "save.not_generala": "this is not a Generala save (game {got})",
    "save.field": "the document's {field} is missing or not {expected}",
    "save.option_names": "option names are text",
    "save.unchecked": "the game's dice cannot be checked: it records rolls but not the roller (seed) that rolled them",
    "save.dice_edited": "the dice were edited: the roll at action {action} (side {name}, turn {turn}, roll {roll}) "
                        "recorded {dice} but the seed gives {seeded}",
    "save.rolloff_edited": "the dice were edited: the roll-off at action {action} (side {name}, round {round}) "
                           "recorded {dice} but the seed gives {seeded}",
    "save.dice_unchecked": "the dice were edited: the roll at action {action} (side {name}, turn {turn}, "
                           "roll {roll}) cannot be checked: {cause}",
    "save.rolloff_unchecked": "the dice were edited: the roll-off at action {action} (side {name}, "
                              "round {round}) cannot be checked: {cause}",
    "save.illegal": "the saved game is not legal: {cause}",
    "save.malformed": "the save document is malformed ({error})",
    # --- export files -----------------------------------------------------------------
    "import.too_large": "the file is too large ({size} bytes; at most {max})",
    "import.not_text": "the file is not text (UTF-8)",
    "import.type": "an export is a JSON text",
    "import.too_deep": "the file is refused: it nests more than {depth} levels deep",
    "import.not_json": "the file is not JSON (line {line}, column {column})",
    "import.not_export": "the file is not a Generala export",
    "import.newer": "the export is from a newer version ({got}; this app reads {max})",
    "import.empty": "the export holds no games",
    "import.too_many": "the export holds {count} games; at most {max}",
    "import.no_save": "game {game} of the file has no saved game",
    "import.game": "game {game} of the file cannot be loaded: {cause}",
    # --- share links -----------------------------------------------------------------
    "link.not_link": "this is not a Generala game link",
    "link.too_long": "the game link is too long",
    "link.characters": "the game link is damaged (it has characters a link never has)",
    "link.altered": "the game link is damaged (it is cut short or altered)",
    "link.check": "the game link is damaged (its check does not match)",
    "link.unreadable": "the game link is damaged (its contents cannot be read)",
    "link.too_big": "the game in the link is refused: it unpacks to more than {max} bytes, far more than any real game",
    "link.cut_short": "the game link is damaged (it is cut short)",
    "link.not_text": "the game link is damaged (its contents are not text)",
    "link.too_deep": "the game in the link is refused: it nests more than {depth} levels deep",
    "link.not_json": "the game in the link is not JSON (line {line}, column {column})",
    "share.unfinished": "only a finished game is shared: a link carries the seed, which would tell the dice still to come",
    # --- games played by link (generala/modes/linkgame.py) ---------------------------------
    "link.field": "the game link is damaged (its {field} is not as a link game writes it)",
    "link.newer": "the game link is from a newer version (format {schema}; this app reads up to {max})",
    "link.illegal": "the game in the link is not a valid game: {cause}",
    "link.not_started": "the link records moves before every side has joined",
    "link.secret_wrong": "the values {name} revealed do not match the secret {name} committed to",
    "link.value_wrong": "the value {name} gave for turn {turn} does not match the secret {name} committed to",
    "link.values_missing": "the dice of turn {turn} need the part of {name}, which has not come yet",
    "link.dice_forged": "the dice were forged: roll {roll} of {name} in turn {turn} shows {dice}, "
                        "but every side's values give {derived}",
    "link.not_mine": "this device's secret does not match the commitment of {name}",
    "link.not_yours": "it is the turn of {name}, played on another device",
    "link.sent": "this move was sent in a link: it is final",
    "link.reader": "this device plays no side in this game: it only reads it",
    "link.your_turn": "it is this device's turn: play it before sending the link",
    "link.not_host": "only the device that started the game invites, before the game starts",
    "link.no_seat": "side {side} is not a friend's side of this game",
    "link.entropy": "a game by link needs {min} random bytes",
    "link.other_game": "this link is of another game",
    "link.rules_changed": "the link changes the game's rules or who plays its sides",
    "link.side_changed": "the link names {name} as {got}",
    "link.commitment_changed": "the link gives {name} another commitment than the one this device holds",
    "link.value_changed": "the link changes a value {name} gave when joining",
    "link.rewrites": "the link rewrites a move already played: turn {turn} of {name} ({mine} on this device, "
                     "{theirs} in the link)",
    "link.not_invitation": "this link is not an invitation to join a game",
    "link.seat_taken": "{name} has already joined the game as this side",
    "link.again": "a game by link is played again from a new invitation",
    "link.old_protocol": "this game by link was started by an older version (format {schema}) whose dice two "
                         "players could steer together with {devices} devices: it cannot be played on",
    "link.seal_wrong": "the values {name} revealed do not match the seal {name} sent when joining",
    "link.seat_uninvited": "the link puts {name} in side {side} without that side's invitation",
    "link.join_twice": "{got} joined through the invitation {name} already used: that side is {name}'s",
}

#: Type ids (``expected`` in params) -> English: what a request field or document part must be.
TYPES: dict[str, str] = {
    "bool": "true or false",
    "int": "a whole number",
    "number": "a number",
    "ints": "a list of whole numbers",
    "text": "text",
    "object": "an object",
    "list": "a list",
    "variant": "a variant name",
    "options": "an object of house options",
    "sides": "a list of names or {name, members, player} objects",
    "save": "a save document (an object)",
    "box": "a box id",
    "two_boxes": "two box ids",
    "scratch": "true/false (one box) or a pair of them (two boxes)",
    "link": "a link token",
    "entries": "a list of saved games",
    "export": "the text of an export file",
    "moves": "a list of a bot's moves (text)",
    "tally": "the Bot lab's count (the text op lab_games answered)",
}

#: Params whose list is written joined by commas in English (ids, allowed values).
JOINED = frozenset({"boxes", "values", "variants", "options", "kinds", "levels", "fields", "takes"})

_FIELD = re.compile(r"(?<!\{)\{(\w+)\}")


def placeholders(template: str) -> set[str]:
    """The params a template names (``{{`` is a literal brace)."""
    return set(_FIELD.findall(template.replace("{{", "").replace("}}", "")))


def params_of(code: str) -> set[str]:
    """The params a refusal of ``code`` carries: its template's placeholders, and ``side``
    beside ``name`` (a side's index with its name: the English says the name)."""
    names = placeholders(CODES[code])
    return names | {"side"} if "name" in names else names


def shown(value, limit: int = 60) -> str:
    """A refused value for ``got``: its JSON text (Python's repr when it is not JSON), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def english(code: str, params: dict) -> str:
    """The English text of a refusal: its template filled with its params."""
    return CODES[code].format(**{name: _word(name, value) for name, value in params.items()})


def _word(name: str, value) -> str:
    if name == "expected" and isinstance(value, str):
        return TYPES[value]
    if name == "cause" and isinstance(value, dict):
        return english(value["code"], value["params"])
    if isinstance(value, list):
        if name in JOINED:
            return ", ".join(str(_plain(v)) for v in value)
        return "[" + ", ".join(str(_plain(v)) for v in value) + "]"
    return str(_plain(value))


def _plain(value):
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return value
