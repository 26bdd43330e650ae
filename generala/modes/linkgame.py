"""A game played by link: each side on its own device, the link the only transport.

The **document** travels in every link and holds the whole game: its rules, its sides,
each device's commitment, what each device has revealed of its hash chain, the values a
friend gave when it joined, and the history (holds only where they change a roll)::

    {"link": 1, "id": "<16 bytes, base64url>", "variant": "argentine", "options": {...},
     "sides": [{"name": "Ana", "player": "human"}, {"name": null, "player": "human"},
               {"name": "Bot", "player": "ai:beginner"}],
     "commit": ["<32 bytes>", null, null],       a device's x[0], one a person's side
     "top":    [[3, "<32 bytes>"], null, null],  the highest chain element revealed
     "early":  [[], [[0, 0, "<16 bytes>"]], []], a friend's values given as it joined:
                                                 [turn, device, value]
     "history": [{"roll": [...]}, {"hold": [0, 1]}, {"roll": [...]}, {"score": "fours"}]}

A device is named by its person's side (``device`` below is a side index); the host is side
0 and plays the computer sides too. The dice never need to be trusted: every device
derives every die from the values (:mod:`generala.modes.linkdice`) and refuses a link whose
recorded dice, revealed values or commitments do not agree, naming the side at fault.
The design and its threat model: docs/link-play.md.

A **token** is ``p1.`` + the packed document (as share links pack a save:
:func:`generala.modes.share.pack`); an invitation adds ``"for"``: the side it invites.

What a device keeps (its **local** record, never sent): the document, its own side
(``device``), its secret and how far its history has been sent (``sent``).
"""
from __future__ import annotations

import base64
import binascii

from . import linkdice, share
from ..rules.errors import GeneralaError, IllegalAction, InvalidInput, SaveError
from ..rules.game import Game
from ..rules.refusals import shown
from ..rules.sides import clean_name, computer_level
from ..rules.variants import variant

FORMAT = 2
#: The formats this engine reads: 1 (before seals and seat tickets) only for two devices.
OLDEST = 1
PREFIX = "p1."
#: Bytes of a game's id.
ID_SIZE = 16

UPDATED, UNCHANGED, OLDER, NEW = "updated", "unchanged", "older", "new"


# --- bytes in text ------------------------------------------------------------------

def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text, size: int, field: str) -> bytes:
    if isinstance(text, str) and len(text) == -(-size * 4 // 3):
        try:
            data = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            data = b""
        if len(data) == size and b64(data) == text:
            return data
    raise SaveError("link.field", {"field": field})


# --- the history as it travels --------------------------------------------------------

def canonical(history: list[dict]) -> list[dict]:
    """A history as links carry it: the roll-off left out (every device derives it), and a
    hold written only before the roll it changes (or, last, while a turn is still being
    played); the other actions as they are."""
    out: list[dict] = []
    held: list[int] = []        # the dice held now
    written: list[int] = []     # the holds as the canonical history stands
    for action in history:
        if "rolloff" in action:
            continue
        if "hold" in action:
            held = sorted(action["hold"])
            continue
        if "roll" in action and held != written:
            out.append({"hold": list(held)})
            written = list(held)
        out.append(action)
        if "score" in action:
            held, written = [], []
    if held != written:
        out.append({"hold": list(held)})
    return out


# --- the document ---------------------------------------------------------------------

class _Roller:
    """The game's roller on this device: the dice of the turn being played, from every
    device's value (or a refusal saying whose value has not come)."""

    kind = "link"

    def __init__(self, owner: "LinkGame") -> None:
        self.owner = owner

    def draw(self, count: int, position: int) -> tuple[int, ...]:
        return self.owner._fresh(count, position, IllegalAction)


class _RolloffRoller:
    def __init__(self, key: bytes) -> None:
        self.key = key

    def draw(self, count: int, position: int) -> tuple[int, ...]:
        return linkdice.faces(self.key, position, count)


class LinkGame:
    """A link game as one device holds it: the checked document, the game it describes
    (``game``: None until every side has joined), and this device's side and secret
    (None for a device that only reads the link)."""

    def __init__(self, doc, device: int | None = None, secret: bytes | None = None, sent: int = 0):
        self.device, self.secret, self.sent = device, secret, sent
        self._read(doc)
        self._build()

    # --- reading a document ----------------------------------------------------

    def _read(self, doc) -> None:
        if not isinstance(doc, dict):
            raise SaveError("link.field", {"field": "document"})
        version = doc.get("link")
        if type(version) is not int:
            raise SaveError("link.field", {"field": "link"})
        if version > FORMAT:
            raise SaveError("link.newer", {"schema": version, "max": FORMAT})
        if version < OLDEST:
            raise SaveError("link.field", {"field": "link"})
        self.version = version
        self.id = unb64(doc.get("id"), ID_SIZE, "id")
        if not isinstance(doc.get("variant"), str) or not isinstance(doc.get("options"), dict):
            raise SaveError("link.field", {"field": "variant"})
        try:
            self.rules = variant(doc["variant"], **doc["options"])
        except GeneralaError as err:
            raise SaveError("link.illegal", {"cause": err}) from None
        except TypeError:  # an option named as one of variant()'s own parameters ("name")
            raise SaveError("link.field", {"field": "options"}) from None
        sides = doc.get("sides")
        if not isinstance(sides, list) or not 2 <= len(sides) <= 8:
            raise SaveError("link.field", {"field": "sides"})
        self.names: list[str | None] = []
        self.players: list[str] = []
        for side in sides:
            if not isinstance(side, dict) or set(side) != {"name", "player"}:
                raise SaveError("link.field", {"field": "sides"})
            player, name = side["player"], side["name"]
            if player != "human" and computer_level(player) is None:
                raise SaveError("link.field", {"field": "sides"})
            if name is not None:
                try:
                    name = clean_name(name)
                except GeneralaError as err:
                    raise SaveError("link.illegal", {"cause": err}) from None
            elif player != "human":
                raise SaveError("link.field", {"field": "sides"})
            self.names.append(name)
            self.players.append(player)
        n = len(sides)
        if self.players[0] != "human" or self.names[0] is None:
            raise SaveError("link.field", {"field": "sides"})
        self.devices = [i for i in range(n) if self.players[i] == "human"]
        if len(self.devices) < 2:
            raise SaveError("link.field", {"field": "sides"})
        if version < 2 and len(self.devices) > 2:
            # format 1 let a friend's roll-off element reach later joiners: colluders could
            # choose the order and the first dice. Such a game is refused, not played on.
            raise SaveError("link.old_protocol", {"devices": len(self.devices), "schema": version})
        #: three or more devices: each friend joins with its commitment and a seal only, and
        #: reveals once every device has committed (docs/link-play.md)
        self.sealed = len(self.devices) > 2
        self.turns = n * self.rules.turns
        self.length = self.turns + 1  # chain length: unit 1 the roll-off, unit t + 2 turn t
        commits, tops, early = doc.get("commit"), doc.get("top"), doc.get("early")
        seals = doc.get("seal", [None] * n) if version >= 2 else [None] * n
        for field, value in (("commit", commits), ("top", tops), ("early", early), ("seal", seals)):
            if not isinstance(value, list) or len(value) != n:
                raise SaveError("link.field", {"field": field})
        self.ticket = None  # (side, ticket): the seat an invitation offers, or a friend took
        if "ticket" in doc:
            ticket = doc["ticket"]
            if version < 2 or not isinstance(ticket, list) or len(ticket) != 2 or type(ticket[0]) is not int \
                    or ticket[0] not in self.devices[1:]:
                raise SaveError("link.field", {"field": "ticket"})
            self.ticket = (ticket[0], unb64(ticket[1], linkdice.TICKET_SIZE, "ticket"))
        self.seals: list[bytes | None] = []
        self.commits: list[bytes | None] = []
        self.tops: list[tuple[int, bytes] | None] = []
        self.early: list[dict[tuple[int, int], bytes]] = []
        for i in range(n):
            human = i in self.devices
            commit = None if commits[i] is None else unb64(commits[i], linkdice.SIZE, "commit")
            if (commit is not None and not human) or (human and (commit is None) != (self.names[i] is None)):
                raise SaveError("link.field", {"field": "commit"})
            top = tops[i]
            if top is not None:
                if commit is None or not isinstance(top, list) or len(top) != 2 or type(top[0]) is not int \
                        or not 1 <= top[0] <= self.length:
                    raise SaveError("link.field", {"field": "top"})
                top = (top[0], unb64(top[1], linkdice.SIZE, "top"))
            seal = None if seals[i] is None else unb64(seals[i], linkdice.SIZE, "seal")
            if (seal is not None) != (self.sealed and i != 0 and commit is not None):
                raise SaveError("link.field", {"field": "seal"})
            self.seals.append(seal)
            values = {}
            if not isinstance(early[i], list) or (early[i] and commit is None) or (early[i] and i == 0):
                raise SaveError("link.field", {"field": "early"})  # the host gives no early values
            for entry in early[i]:
                if not isinstance(entry, list) or len(entry) != 3 or type(entry[0]) is not int \
                        or not 0 <= entry[0] < n - 1 or entry[1] not in self.devices or entry[1] == i:
                    raise SaveError("link.field", {"field": "early"})
                values[(entry[0], entry[1])] = unb64(entry[2], linkdice.VALUE_SIZE, "early")
            self.commits.append(commit)
            self.tops.append(top)
            self.early.append(values)
        history = doc.get("history")
        if not isinstance(history, list) or not all(isinstance(a, dict) for a in history):
            raise SaveError("link.field", {"field": "history"})
        if any("rolloff" in a or "order" in a or "enter" in a for a in history):
            raise SaveError("link.field", {"field": "history"})
        self.history = [dict(a) for a in history]
        if self.device is not None:
            if self.device not in self.devices or self.secret is None:
                raise SaveError("link.field", {"field": "device"})
            own = self.commits[self.device]
            if own is not None and own != linkdice.element(self.secret, self.id, self.length, 0):
                raise SaveError("link.not_mine", {"side": self.device, "name": self._name(self.device)})
            if self.ticket is not None and self.ticket[0] != self.device:
                raise SaveError("link.field", {"field": "ticket"})
        self._check_chains()

    def _name(self, side: int) -> str:
        return self.names[side] if self.names[side] is not None else "?"

    def _check_chains(self) -> None:
        """Every revealed chain hashes down to its commitment; every early value that its
        chain now shows agrees with it."""
        self.chains: list[list[bytes] | None] = []
        for d, top in enumerate(self.tops):
            chain = None
            if d == self.device:
                chain = [linkdice.element(self.secret, self.id, self.length, self.length)]
                index = self.length
            elif top is not None:
                chain, index = [top[1]], top[0]
            if chain is not None:
                for k in range(index, 0, -1):
                    chain.append(linkdice.down(chain[-1], self.id, k))
                chain.reverse()  # chain[k] is x[k]
                if chain[0] != self.commits[d]:
                    if d == self.device:
                        raise SaveError("link.not_mine", {"side": d, "name": self._name(d)})
                    raise SaveError("link.secret_wrong", {"side": d, "name": self._name(d)})
                if d == self.device and top is not None and chain[top[0]] != top[1]:
                    raise SaveError("link.secret_wrong", {"side": d, "name": self._name(d)})
            self.chains.append(chain)
        self._check_early()

    def _check_early(self) -> None:
        """Every early value a chain now shows agrees with it; in a sealed game, a friend who
        has revealed its roll-off element has given every early value its chain does not
        show yet, and all of them together match the seal it sent with its commitment."""
        n = len(self.names)
        for d, values in enumerate(self.early):
            for (t, device), given in sorted(values.items()):
                unit = t + 2
                if self._known(d) >= unit and linkdice.value(self.chains[d][unit], self.id, unit, device) != given:
                    raise SaveError("link.value_wrong", {"side": d, "name": self._name(d), "turn": t + 1})
            if self.seals[d] is None or self._known(d) < 1:
                continue
            sealed = []
            for t, device in early_keys(n, self.devices, d):
                unit = t + 2
                if self._known(d) >= unit:
                    sealed.append(linkdice.value(self.chains[d][unit], self.id, unit, device))
                elif (t, device) in values:
                    sealed.append(values[(t, device)])
                else:
                    raise SaveError("link.field", {"field": "early"})
            if linkdice.seal(self.id, d, sealed) != self.seals[d]:
                raise SaveError("link.seal_wrong", {"side": d, "name": self._name(d)})

    def _known(self, d: int) -> int:
        """The highest chain element of device ``d`` this device knows (its whole chain for
        itself, what was revealed for another, -1 for nothing)."""
        if d == self.device:
            return self.length
        return self.tops[d][0] if self.tops[d] is not None else -1

    def host_of(self, side: int) -> int:
        """The device that plays ``side``: its person, or the host for a computer side."""
        return side if self.players[side] == "human" else 0

    # --- values and dice -----------------------------------------------------------

    def _value(self, d: int, unit: int, device: int) -> tuple[bytes, bool] | None:
        """Device ``d``'s value for ``unit`` played by ``device``, and whether its chain
        shows it (else it is an early value, checked when the chain comes); None when
        this device does not have it."""
        if self._known(d) >= unit:
            return linkdice.value(self.chains[d][unit], self.id, unit, device), True
        given = self.early[d].get((unit - 2, device)) if unit >= 2 else None
        return None if given is None else (given, False)

    def _key(self, unit: int, device: int, error, turn: int = 0) -> bytes:
        """The key of a unit's dice; ``error`` (with ``turn``: the side's turn number) says
        whose value is missing."""
        values = []
        for d in self.devices:
            found = self._value(d, unit, device)
            if found is None:
                raise error("link.values_missing", {"side": d, "name": self._name(d), "turn": turn})
            values.append(found[0])
            if not found[1]:
                self._pending.add(d)
        self._last_unit = max(self._last_unit, unit)  # drawn (a refused roll draws none)
        return linkdice.turn_key(self.id, unit, device, values)

    def _fresh(self, count: int, position: int, error) -> tuple[int, ...]:
        """The dice a roll of ``count`` dice draws now (``position``: the game's dice drawn)."""
        game = self.game
        if game.rolls == 0:
            self._turn_start = position
        unit = game.turn + 2
        key = self._key(unit, self.host_of(game.current), error, game.round)
        return linkdice.faces(key, position - self._turn_start, count)

    # --- the game ---------------------------------------------------------------------

    @property
    def joined(self) -> bool:
        return all(self.names[d] is not None for d in self.devices)

    def _build(self) -> None:
        """The game the document describes, replayed with every die checked."""
        self._pending: set[int] = set()
        self._last_unit = 1  # the highest unit whose dice were drawn (1: the roll-off)
        self._turn_start = 0
        self.game = None
        self.rolloff_ready = self.joined and all(self._known(d) >= 1 for d in self.devices)
        if not self.rolloff_ready:
            if self.history:
                raise SaveError("link.not_started")
            return
        key = self._key(1, linkdice.ALL, SaveError)
        sides = [{"name": name, "player": player} for name, player in zip(self.names, self.players)]
        try:
            game = Game(self.rules, sides, _RolloffRoller(key))
        except GeneralaError as err:
            raise SaveError("link.illegal", {"cause": err}) from None
        self.game = game
        game.one_device = False  # each device undoes only its own move not yet sent (check_undo)
        game.roller = _Roller(self)
        for number, action in enumerate(self.history, 1):
            try:
                if "roll" in action and set(action) == {"roll"}:
                    self._check_roll(action["roll"])
                game.apply(action)
            except SaveError:
                raise
            except GeneralaError as err:
                raise SaveError("link.illegal", {"cause": err}) from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                raise SaveError("link.field", {"field": "history"}) from None
        if canonical(game.history) != self.history:
            raise SaveError("link.field", {"field": "history"})

    def _check_roll(self, recorded) -> None:
        game = self.game
        free = list(game.check_roll())
        if not isinstance(recorded, list) or len(recorded) != self.rules.dice:
            return  # the roll itself refuses it, with its reason
        fresh = self._fresh(len(free), game.drawn, SaveError)
        expected = list(game.dice) if game.dice is not None else [0] * len(recorded)
        for i, value in zip(free, fresh):
            expected[i] = value
        if recorded != expected:
            side = game.current
            raise SaveError("link.dice_forged", {
                "side": side, "name": self._name(side), "turn": game.round, "roll": game.rolls + 1,
                "dice": list(recorded) if all(type(v) is int for v in recorded) else [], "derived": expected})

    def playing(self) -> int | None:
        """The device whose turn it is (None before the start and once over)."""
        if self.game is None or self.game.over:
            return None
        return self.host_of(self.game.current)

    def my_turn(self) -> bool:
        return self.device is not None and self.playing() == self.device

    def play(self, action: dict):
        """Take an action of the side to play on this device (as ``Game.apply``)."""
        if action == {"undo": True} and self.game is not None and self.device is not None:
            self.check_undo()
            result = self.game.undo()
            self.history = canonical(self.game.history)
            return result
        if not self.my_turn():
            side = self.game.current if self.game is not None and not self.game.over else None
            raise IllegalAction("link.not_yours", {"side": side, "name": self._name(side) if side is not None
                                                   else "?"})
        if action == {"undo": True}:
            self.check_undo()
            result = self.game.undo()
        else:
            result = self.game.apply(action)
        self.history = canonical(self.game.history)
        return result

    def check_undo(self) -> None:
        """Only this device's own move, not yet sent, is undone: a move sent is final."""
        game = self.game
        if game.history and "score" in game.history[-1] and game.turn > 0:
            side = game.order[(game.turn - 1) % len(self.names)]  # the side that scored
        else:
            side = game.current
        if len(canonical(game.history[:-1])) < self.sent:
            raise IllegalAction("link.sent")
        if side is None or self.host_of(side) != self.device:
            raise IllegalAction("link.not_yours", {"side": side, "name": self._name(side) if side is not None
                                                   else "?"})

    def verification(self) -> dict:
        """``{"state", "pending"}``: ``verified`` (every die of the game so far follows from
        values each device's chain shows), ``pending`` (some dice come from early values not
        yet shown by their device's chain: ``pending`` lists those devices' sides)."""
        pending = sorted(self._pending)
        return {"state": "pending" if pending else "verified", "pending": pending}

    def owes(self) -> bool:
        """The game is over and some of its dice rest on values of this device's that no link
        it sent has shown (it ended before this device's first turn: a served win): the
        other devices wait for its closing link to verify them."""
        if self.device is None or self.game is None or not self.game.over:
            return False
        top = self.tops[self.device]
        return (top[0] if top is not None else -1) < self._last_unit

    # --- making links ---------------------------------------------------------------------

    def reveal_upto(self) -> int:
        """How far this device reveals its chain in the link it sends now: up to the turn
        before its own next turn (the whole chain once the game is over)."""
        d = self.device
        if self.game is None:
            # a friend reveals its roll-off element (and its early values) in its join; in a
            # sealed game only once every device has committed (the host's link says so)
            return 1 if d != 0 and (self.joined or not self.sealed) else 0
        if self.game.over:
            return self.length
        n = len(self.names)
        for t in range(self.game.turn, self.turns):
            if self.host_of(self.game.order[t % n]) == d:
                return t + 1
        return self.length

    def to_json(self, *, for_link: bool = False) -> dict:
        tops = list(self.tops)
        if for_link:
            upto = self.reveal_upto()
            if upto >= 1 and (tops[self.device] is None or tops[self.device][0] < upto):
                tops[self.device] = (upto, self.chains[self.device][upto])
        early = []
        n = len(self.names)
        for d, values in enumerate(self.early):
            keep = sorted(values.items())
            shown_to = tops[d][0] if tops[d] is not None else 0
            if for_link and d == self.device and shown_to < 1:
                keep = []  # not revealed yet: a sealed game's friend before every device committed
            elif for_link and self.sealed:
                # every value the chain does not show yet: together they check the seal
                keep = [(key, v) for key, v in keep if key[0] + 2 > shown_to]
            elif for_link and self.game is not None:
                # the order is known: only the values for the device that plays each turn
                keep = [(key, v) for key, v in keep if self.host_of(self.game.order[key[0] % n]) == key[1]]
            early.append([[t, device, b64(v)] for (t, device), v in keep])
        doc = {
            "link": self.version, "id": b64(self.id), "variant": self.rules.name, "options": self.rules.options,
            "sides": [{"name": name, "player": player} for name, player in zip(self.names, self.players)],
            "commit": [None if c is None else b64(c) for c in self.commits],
            "top": [None if t is None else [t[0], b64(t[1])] for t in tops],
            "early": early,
            "history": canonical(self.game.history) if self.game is not None else [],
        }
        if self.version >= 2:
            doc["seal"] = [None if c is None else b64(c) for c in self.seals]
        if self.ticket is not None and self.game is None:  # needed until the game starts: the join
            doc["ticket"] = [self.ticket[0], b64(self.ticket[1])]
        return doc

    def link(self) -> str:
        """The token this device sends now: its join, the game's start or its move. What it
        reveals is kept (``tops``) and the history is sent (``sent``): a move sent is final."""
        if self.device is None:
            raise IllegalAction("link.reader")
        if self.my_turn():
            raise IllegalAction("link.your_turn")
        doc = self.to_json(for_link=True)
        upto = doc["top"][self.device]
        if upto is not None:
            self.tops[self.device] = (upto[0], self.chains[self.device][upto[0]])
        self.history = doc["history"]
        self.sent = len(self.history)
        return share.pack(doc, PREFIX)

    def invitation(self, side: int) -> str:
        """The host's invitation for the person of ``side``."""
        if self.device != 0 or self.game is not None:
            raise IllegalAction("link.not_host")
        if side not in self.devices or side == 0:
            raise InvalidInput("link.no_seat", {"side": side})
        doc = {**self.to_json(), "for": side}
        if self.version >= 2:
            doc["ticket"] = [side, b64(linkdice.ticket(self.secret, self.id, side))]
        return share.pack(doc, PREFIX)

    def waiting_reveals(self) -> list[int]:
        """The friends whose roll-off element has not come, once every device has committed
        and before the game starts (a sealed game's second round)."""
        if self.game is not None or not self.joined:
            return []
        return [d for d in self.devices if self._known(d) < 1]

    def _check_seats(self, doc: dict) -> None:
        """The host takes a friend into a seat only with that seat's own invitation: the
        join echoes the seat's ticket, which only the host can make. A second join through
        an invitation already used is refused naming who holds the seat."""
        if self.device != 0 or self.version < 2:
            return
        ticket, seat = doc.get("ticket"), None
        if isinstance(ticket, list) and len(ticket) == 2 and type(ticket[0]) is int and ticket[0] in self.devices[1:] \
                and ticket[1] == b64(linkdice.ticket(self.secret, self.id, ticket[0])):
            seat = ticket[0]
        sides, commits = doc.get("sides"), doc.get("commit")
        for d in self.devices[1:]:
            side = sides[d] if isinstance(sides, list) and d < len(sides) else None
            theirs = side.get("name") if isinstance(side, dict) else None
            commit = commits[d] if isinstance(commits, list) and d < len(commits) else None
            if theirs is None:
                continue
            if self.names[d] is None and seat != d:
                raise SaveError("link.seat_uninvited", {"side": d, "name": _said(theirs)})
            if self.names[d] is not None and seat == d and not doc.get("history") and commit != b64(self.commits[d]):
                raise SaveError("link.join_twice", {"side": d, "name": self.names[d], "got": _said(theirs)})

    def local(self) -> dict:
        """What this device stores: the document, its side, its secret, what it has sent."""
        return {"doc": self.to_json(), "device": self.device,
                "secret": None if self.secret is None else b64(self.secret), "sent": self.sent}

    @classmethod
    def from_local(cls, local) -> "LinkGame":
        if not isinstance(local, dict) or set(local) != {"doc", "device", "secret", "sent"}:
            raise SaveError("link.field", {"field": "local"})
        secret = None if local["secret"] is None else unb64(local["secret"], linkdice.SIZE, "secret")
        if type(local["sent"]) is not int or (local["device"] is not None and type(local["device"]) is not int):
            raise SaveError("link.field", {"field": "local"})
        return cls(local["doc"], local["device"], secret, local["sent"])

    # --- receiving links -----------------------------------------------------------------

    def merge(self, token: str) -> str:
        """Take a link of this game into this device's record: ``updated`` (it brings more),
        ``unchanged`` (nothing new), ``older`` (this device already has a later position);
        refused when it contradicts what this device holds (naming the side and the move)
        or is damaged."""
        doc, _ = read(token)
        if doc.get("id") != b64(self.id):
            raise SaveError("link.other_game")
        self._check_seats(doc)
        sides = doc.get("sides")
        for d, mine in enumerate(self.names):
            side = sides[d] if isinstance(sides, list) and d < len(sides) else None
            theirs = side.get("name") if isinstance(side, dict) else None
            if mine is not None and isinstance(theirs, str) and " ".join(theirs.split()) != mine:
                raise SaveError("link.side_changed", {"side": d, "name": mine, "got": shown(theirs)})
        commits = doc.get("commit")
        for d, mine in enumerate(self.commits):
            theirs = commits[d] if isinstance(commits, list) and d < len(commits) else None
            if mine is not None and isinstance(theirs, str) and theirs != b64(mine):
                raise SaveError("link.commitment_changed", {"side": d, "name": self._name(d)})
        incoming = LinkGame(doc)
        if incoming.rules != self.rules or incoming.players != self.players:
            raise SaveError("link.rules_changed")
        names, commits, tops, early = list(self.names), list(self.commits), list(self.tops), []
        seals = list(self.seals)
        newer = older = False
        for d in range(len(names)):
            mine, theirs = self.names[d], incoming.names[d]
            if mine is not None and theirs is not None and mine != theirs:
                raise SaveError("link.side_changed", {"side": d, "name": mine, "got": shown(theirs)})
            if self.commits[d] is not None and incoming.commits[d] is not None \
                    and self.commits[d] != incoming.commits[d]:
                raise SaveError("link.commitment_changed", {"side": d, "name": self._name(d)})
            if self.seals[d] is not None and incoming.seals[d] is not None and self.seals[d] != incoming.seals[d]:
                raise SaveError("link.commitment_changed", {"side": d, "name": self._name(d)})
            if mine is None and theirs is not None:
                names[d], commits[d], seals[d], newer = theirs, incoming.commits[d], incoming.seals[d], True
            elif theirs is None and mine is not None:
                older = True
            a, b = self.tops[d], incoming.tops[d]
            ka, kb = (a[0] if a else 0), (b[0] if b else 0)
            if d == self.device:
                pass  # this device knows its whole chain
            elif kb > ka:
                tops[d], newer = b, True
            elif kb < ka:
                older = True
            values = dict(self.early[d])
            for key, given in incoming.early[d].items():
                if key in values and values[key] != given:
                    raise SaveError("link.value_changed", {"side": d, "name": self._name(d)})
                values[key] = given
            early.append([[t, device, b64(v)] for (t, device), v in sorted(values.items())])
        mine, theirs = self.history, incoming.history
        for i, (a, b) in enumerate(zip(mine, theirs)):
            if a != b:
                game = LinkGame(self.to_json() | {"history": mine[:i]}, self.device, self.secret).game
                side = game.current
                raise SaveError("link.rewrites", {"side": side, "name": self._name(side), "turn": game.round,
                                                  "mine": a, "theirs": b})
        history = theirs if len(theirs) > len(mine) else mine
        newer = newer or len(theirs) > len(mine)
        older = older or len(theirs) < len(mine)
        if not newer:
            return OLDER if older else UNCHANGED
        merged = {**self.to_json(), "sides": [{"name": n, "player": p} for n, p in zip(names, self.players)],
                  "commit": [None if c is None else b64(c) for c in commits],
                  "top": [None if t is None else [t[0], b64(t[1])] for t in tops],
                  "early": early, "history": history}
        if self.version >= 2:
            merged["seal"] = [None if c is None else b64(c) for c in seals]
        fresh = LinkGame(merged, self.device, self.secret, self.sent)
        self.__dict__.update(fresh.__dict__)
        return UPDATED


def _said(name) -> str:
    """A name from a link as a refusal says it: cleaned as a side's name, else shown cut short."""
    try:
        return clean_name(name)
    except GeneralaError:
        return shown(name)


def read(token: str) -> tuple[dict, int | None]:
    """The document in a link token and the side an invitation is for (None for other
    links), unchecked but for its packing: ``LinkGame`` checks the game."""
    doc = share.unpack(token, PREFIX)
    if not isinstance(doc, dict):
        raise SaveError("link.field", {"field": "document"})
    doc = dict(doc)
    seat = doc.pop("for", None)
    if seat is not None and type(seat) is not int:
        raise SaveError("link.field", {"field": "for"})
    return doc, seat


def create(rules, sides, secret: bytes, game_id: bytes) -> LinkGame:
    """The host's new game: ``sides`` are ``{"name", "player"}`` (side 0 the host, named; a
    friend's side may be named in advance or left ``None``; computer sides ``ai:<level>``)."""
    if not isinstance(sides, (list, tuple)) or not all(isinstance(s, dict) for s in sides):
        raise InvalidInput("sides.type", {"got": shown(sides)})
    n = len(sides)
    if not 2 <= n <= 8:
        raise InvalidInput("sides.count", {"max": 8, "count": n})
    if len(game_id) != ID_SIZE:
        raise InvalidInput("link.entropy", {"min": ID_SIZE + linkdice.SIZE})
    names = [s.get("name") for s in sides]
    players = [s.get("player", "human") for s in sides]
    doc = {"link": FORMAT, "id": b64(game_id), "variant": rules.name, "options": rules.options,
           "sides": [{"name": name if player != "human" or i == 0 else None, "player": player}
                     for i, (name, player) in enumerate(zip(names, players))],
           "commit": [None] * n, "top": [None] * n, "early": [[] for _ in range(n)], "history": []}
    length = n * rules.turns + 1
    doc["commit"][0] = b64(linkdice.element(secret, game_id, length, 0))
    doc["seal"] = [None] * n
    return LinkGame(doc, 0, secret)


def early_keys(sides: int, devices: list[int], device: int) -> list[tuple[int, int]]:
    """The early values ``device`` gives as it joins, in order: for each turn before its own
    first turn can come, one for each other device that may play it."""
    return [(t, x) for t in range(sides - 1) for x in devices if x != device]


def join(token: str, name: str, secret: bytes) -> LinkGame:
    """A friend's side of the game an invitation offers: named, committed, and with the
    values the friend gives before the order is known (for each turn before its first
    turn can come, one for each other device that may play it)."""
    doc, seat = read(token)
    invited = LinkGame(doc)
    if seat is None or seat not in invited.devices or seat == 0 \
            or (invited.version >= 2 and (invited.ticket is None or invited.ticket[0] != seat)):
        raise SaveError("link.not_invitation")
    if invited.names[seat] is not None:
        raise SaveError("link.seat_taken", {"side": seat, "name": invited.names[seat]})
    try:
        name = clean_name(name)
    except GeneralaError as err:
        raise SaveError("link.illegal", {"cause": err}) from None
    gid, length, n = invited.id, invited.length, len(invited.names)
    chain = [linkdice.element(secret, gid, length, k) for k in range(n + 1)]
    doc["sides"][seat] = {"name": name, "player": "human"}
    doc["commit"][seat] = b64(chain[0])
    keys = early_keys(n, invited.devices, seat)
    values = [linkdice.value(chain[t + 2], gid, t + 2, d) for t, d in keys]
    doc["early"][seat] = [[t, d, b64(v)] for (t, d), v in zip(keys, values)]
    if invited.sealed:
        # three or more devices: the join commits (the chain and a seal of the early values)
        # and reveals nothing; the roll-off element and the values follow once every device
        # has committed (reveal_upto)
        doc["seal"][seat] = b64(linkdice.seal(gid, seat, values))
    else:
        doc["top"][seat] = [1, b64(chain[1])]
    return LinkGame(doc, seat, secret)
