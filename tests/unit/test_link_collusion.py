"""Colluders against an honest friend in a game by link (docs/link-play.md, "Threat model"):
the host and its friends (or the host on a second device) share every secret and every link
they receive, and the last of them to join grinds secrets before it commits, hoping to
choose the order and the first dice. Whatever they try, the dice still rest on the honest
friend's chain, which no colluder has seen anything of but its commitment and its seal
when the last colluder commits; once the honest friend reveals, every colluder's part is
fixed and any change of it is refused.

The grinding loop runs GRIND secrets here; ``bench/link_grind.py`` runs 100,000 (and says
how long a secret takes)."""
import hashlib
import hmac
import json
import random

import pytest

from generala.ai.strategies import chase
from generala.modes import linkdice, linkgame, share
from generala.rules.errors import SaveError
from generala.rules.game import Game
from generala.rules.variants import variant

#: Secrets ground per game in the unit tests (bench/link_grind.py: 100,000).
GRIND = 20_000
RULES = "argentine"
HONEST = 1


def entropy_from(seed):
    rng = random.Random(seed)
    return lambda n: rng.randbytes(n)


def chain_low(secret: bytes, gid: bytes, length: int) -> tuple[bytes, bytes]:
    """A device's elements x[1] and x[2] from its secret, as fast as CPython goes: the
    grinding loop's whole cost (every step of the chain from its top)."""
    sha, msg = hashlib.sha256, linkdice._CHAIN + gid
    x = hmac.new(secret, linkdice._TOP + gid + length.to_bytes(2, "big"), hashlib.sha256).digest()
    for k in range(length, 2, -1):
        x = sha(msg + k.to_bytes(2, "big") + x).digest()
    x2 = x
    x1 = sha(msg + b"\x00\x02" + x2).digest()
    return x1, x2


def order_of(rules, sides, gid, rolloff_values) -> list[int]:
    key = linkdice.turn_key(gid, 1, linkdice.ALL, rolloff_values)
    return list(Game(rules, sides, linkgame._RolloffRoller(key)).order)


def first_roll(gid, player, values) -> tuple[int, ...]:
    return linkdice.faces(linkdice.turn_key(gid, 2, player, values), 0, 5)


class Table:
    """A game of ``count`` devices, every one a person: side HONEST is the honest friend,
    every other side a colluder (side 0 the host). The honest friend joins first and the
    grinder (the last side) last."""

    def __init__(self, count, seed, names=None):
        draw = entropy_from(seed)
        self.rules = variant(RULES)
        self.names = names or ["Ana", "Beto", "Ceci", "Dani", "Eli", "Fede", "Gabi", "Hugo"][:count]
        self.sides = [{"name": self.names[0], "player": "human"}] + [{"name": None, "player": "human"}] * (count - 1)
        self.secrets = {d: draw(32) for d in range(count)}
        self.host = linkgame.create(self.rules, self.sides, self.secrets[0], draw(16))
        self.gid, self.length = self.host.id, self.host.length
        self.grinder = count - 1
        self.invitations = {d: self.host.invitation(d) for d in range(1, count)}
        self.records = {0: self.host}
        self.sent = {d: [] for d in range(count)}  # every token each device sent, in order
        for d in range(1, count - 1):  # the honest friend first, then the colluders but the grinder
            self.join(d, self.secrets[d])
        self.draw = draw

    def join(self, d, secret):
        self.records[d] = linkgame.join(self.invitations[d], self.names[d], secret)
        token = self.records[d].link()
        self.sent[d].append(token)
        assert self.host.merge(token) == linkgame.UPDATED

    def sides_named(self):
        return [{"name": n, "player": "human"} for n in self.names]

    def honest_parts(self, target):
        """What the colluders hold of the honest friend's parts when the grinder commits:
        its roll-off element and its value for turn 0 played by ``target``, when the links
        it sent carry them (else None: only its commitment and seal came)."""
        doc = self.host.to_json()
        top = doc["top"][HONEST]
        x1 = None
        if top is not None:
            x1 = linkdice.walk(linkgame.unb64(top[1], 32, "top"), self.gid, top[0], 1)
        early = {(t, x): v for t, x, v in doc["early"][HONEST]}
        v = early.get((0, target))
        return x1, None if v is None else linkgame.unb64(v, 16, "early")

    def grind(self, target, tries):
        """The grinder's loop: each secret's x[1] and x[2] with every colluder's, and the
        honest friend's parts as far as the colluders have them (a fixed guess where they
        do not): every secret whose predicted outcome is "``target`` plays first and its
        first roll is five alike"."""
        gid, n = self.gid, len(self.names)
        x1_honest, v_honest = self.honest_parts(target)
        guess = hashlib.sha256(b"guess" + gid).digest()
        x1_honest = x1_honest or guess
        colluders = {d: chain_low(self.secrets[d], gid, self.length) for d in range(n - 1) if d != HONEST}
        if v_honest is None:
            v_honest = linkdice.value(guess, gid, 2, target)
        roll_known = {d: linkdice.value(x1, gid, 1, linkdice.ALL) for d, (x1, _) in colluders.items()}
        turn_known = {d: linkdice.value(x2, gid, 2, target) for d, (_, x2) in colluders.items()}
        draw = random.Random(repr(gid)).randbytes
        found = []
        for _ in range(tries):
            secret = draw(32)
            x1, x2 = chain_low(secret, gid, self.length)
            values = [v_honest if d == HONEST else turn_known.get(d) for d in range(n)]
            values[n - 1] = linkdice.value(x2, gid, 2, target)
            roll = first_roll(gid, target, values)
            if len(set(roll)) != 1:
                continue
            rolloff = [linkdice.value(x1_honest, gid, 1, linkdice.ALL) if d == HONEST else roll_known.get(d)
                       for d in range(n)]
            rolloff[n - 1] = linkdice.value(x1, gid, 1, linkdice.ALL)
            if order_of(self.rules, self.sides_named(), gid, rolloff)[0] == target:
                found.append(secret)
        return found

    def truth(self, secret, target):
        """What a grinder's secret really gives, every device's true parts known (the
        test's oracle): (the side that plays first, ``target``'s first roll if it does)."""
        gid, n = self.gid, len(self.names)
        secrets = {**self.secrets, n - 1: secret}
        parts = {d: chain_low(secrets[d], gid, self.length) for d in range(n)}
        order = order_of(self.rules, self.sides_named(), gid,
                         [linkdice.value(parts[d][0], gid, 1, linkdice.ALL) for d in range(n)])
        roll = first_roll(gid, target, [linkdice.value(parts[d][1], gid, 2, target) for d in range(n)])
        return order[0], roll

    def start(self):
        """Every device committed: the host's link to those who have not revealed, their
        reveals back, until the game starts (one round with three or more devices)."""
        host = self.host
        while host.game is None:
            token = host.link()
            for d in host.waiting_reveals():
                assert self.records[d].merge(token) == linkgame.UPDATED
                reveal = self.records[d].link()
                self.sent[d].append(reveal)
                assert host.merge(reveal) == linkgame.UPDATED

    def play_out(self):
        """The whole game, each device sending its link to the device that plays next (the
        last link to all); every device ends with the same sheets, every die verified."""
        devices = self.records
        sender = 0
        while True:
            device = devices[sender]
            while device.my_turn():
                device.play(chase(device.game))
            token = device.link()
            self.sent[sender].append(token)
            if device.game.over:
                for d in devices:
                    if d != sender:
                        assert devices[d].merge(token) == linkgame.UPDATED
                break
            receiver = device.playing()
            assert devices[receiver].merge(token) == linkgame.UPDATED
            sender = receiver
        owing = sorted({d for r in devices.values() for d in r.verification()["pending"]})
        for side in owing:
            token = devices[side].link()
            for d in devices:
                if d != side:
                    devices[d].merge(token)
        sheets = {json.dumps(r.game.sheets) for r in devices.values()}
        assert len(sheets) == 1
        assert all(r.verification() == {"state": "verified", "pending": []} for r in devices.values())


CASES = {
    "three devices": dict(count=3),
    "eight devices": dict(count=8),
    "the host on two devices": dict(count=3, names=["Ana", "Beto", "Ana (tablet)"]),
}


@pytest.mark.parametrize("case, target, tries", [
    ("three devices", "grinder", GRIND), ("three devices", "host", GRIND),
    ("the host on two devices", "grinder", GRIND), ("eight devices", "grinder", GRIND)])
def test_colluders_grinding_secrets_choose_neither_the_order_nor_any_die(case, target, tries):
    """The colluders grind GRIND secrets for the last joiner, each judged by everything they
    hold, for "``target`` plays first with five alike on its first roll" (a served Generala:
    one chance in 3,888 with three devices). On the protocol where a friend's join carried
    its roll-off element and early values (format 1), every secret they pick does it. Now
    that the honest friend's join carries only its commitment and seal, their prediction
    is a guess: the secrets they pick do it no more often than any secret."""
    table = Table(seed=case, **CASES[case])
    side = table.grinder if target == "grinder" else 0
    picked = table.grind(side, tries)
    assert picked, "the grinding found no secret it predicts to win (raise GRIND)"
    hits = [table.truth(secret, side) for secret in picked]
    won = [secret for secret, (first, roll) in zip(picked, hits) if first == side and len(set(roll)) == 1]
    assert len(won) <= 1, f"{len(won)} of {len(picked)} picked secrets choose the order and the dice"
    # the game goes on with the first secret picked and ends verified on every device,
    # with the order and the first roll the oracle says (its truth is the engine's)
    table.join(table.grinder, picked[0])
    table.start()
    first, roll = table.truth(picked[0], side)
    assert table.host.game.order[0] == first
    table.play_out()
    if first == side:
        assert tuple(next(a["roll"] for a in table.host.game.history if "roll" in a)) == roll


@pytest.mark.parametrize("count", [3, 8])
def test_nothing_of_the_honest_friend_s_dice_leaves_it_before_every_device_has_committed(count):
    """Every part of the honest friend's chain that dice are drawn from (its elements above
    the commitment and its early values) is absent from every link it sends until its
    device holds every other device's commitment and seal."""
    table = Table(count, seed=count)
    honest = table.records[HONEST]
    chain = [linkdice.element(table.secrets[HONEST], table.gid, table.length, k) for k in range(1, count + 2)]
    values = [linkdice.value(chain[t + 1], table.gid, t + 2, x) for t in range(count - 1) for x in range(count)]
    secret_parts = [linkgame.b64(b) for b in chain + values]
    join = json.dumps(share.unpack(table.sent[HONEST][0], linkgame.PREFIX))
    assert not any(part in join for part in secret_parts)
    assert honest.reveal_upto() == 0  # it has not seen the grinder's commitment yet
    table.join(table.grinder, table.secrets[table.grinder])
    table.start()
    reveal = json.dumps(share.unpack(table.sent[HONEST][1], linkgame.PREFIX))
    assert linkgame.b64(chain[0]) in reveal  # its roll-off element, now that all have committed


def test_after_the_honest_friend_reveals_no_colluder_s_part_can_change():
    """Once the honest friend has revealed, the colluders' parts are what they committed
    to: a link that brings the grinder another commitment, another seal or other early
    values is refused by the honest friend's device, naming the grinder."""
    table = Table(3, seed=7)
    table.join(2, table.secrets[2])
    table.start()
    honest, host = table.records[HONEST], table.host
    token = host.link() if not host.my_turn() else None
    while token is None:
        host.play(chase(host.game))
        token = None if host.my_turn() else host.link()
    other = linkgame.join(table.invitations[2], "Ceci", table.draw(32))
    other_doc = other.to_json(for_link=False)

    def refused(change):
        doc = share.unpack(token, linkgame.PREFIX)
        change(doc)
        with pytest.raises(SaveError) as info:
            honest.merge(share.pack(doc, linkgame.PREFIX))
        return info.value.code, info.value.params.get("side")

    assert refused(lambda d: d["commit"].__setitem__(2, other_doc["commit"][2])) == ("link.commitment_changed", 2)
    assert refused(lambda d: d["seal"].__setitem__(2, other_doc["seal"][2])) in (
        ("link.commitment_changed", 2), ("link.seal_wrong", 2))

    def other_value(doc):
        entry = doc["early"][2][0]
        entry[2] = linkgame.b64(bytes(16))
    code, side = refused(other_value)
    assert code in ("link.value_changed", "link.seal_wrong") and side == 2


def test_a_format_one_game_of_three_devices_is_refused_and_one_of_two_still_loads():
    """A saved game of format 1 (before seals) with three or more devices is refused,
    worded (link.old_protocol); one of two devices (sound in format 1) loads and plays on."""
    table = Table(3, seed=9)
    doc = table.host.to_json()
    doc["link"] = 1
    doc.pop("seal")
    with pytest.raises(SaveError) as info:
        linkgame.LinkGame(doc)
    assert info.value.code == "link.old_protocol" and info.value.params == {"devices": 3, "schema": 1}
    draw = entropy_from(10)
    host = linkgame.create(variant("double"), [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}],
                           draw(32), draw(16))
    old = host.to_json() | {"link": 1}
    old.pop("seal")
    old_host = linkgame.LinkGame(old, 0, host.secret)
    invitation = old_host.invitation(1)
    assert "ticket" not in share.unpack(invitation, linkgame.PREFIX)
    beto = linkgame.join(invitation, "Beto", draw(32))
    assert old_host.merge(beto.link()) == linkgame.UPDATED and old_host.game is not None
    assert old_host.to_json()["link"] == 1
