"""Games by link (generala/modes/linkgame.py, generala/modes/linkdice.py, docs/link-play.md): documents
that round-trip, whole games passed between devices held in memory, every way a link is
taken (updated, unchanged, older) or refused (a rewritten move, a forged die, a wrong
revealed secret or value, a swapped commitment, a damaged token), and the dice no side
can choose."""
import base64
import binascii
import json
import random
import zlib
from collections import Counter

import pytest

from generala import app
from generala.modes import linkdice, linkgame, linkmatch, share
from generala.rules.errors import IllegalAction, SaveError
from generala.ai.strategies import chase, first_roll
from generala.rules.variants import VARIANTS, variant

HOST_SIDES = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]


def entropy_from(seed):
    """Reproducible "random" bytes for tests (the page gives crypto.getRandomValues')."""
    rng = random.Random(seed)
    return lambda n: bytes(rng.randrange(256) for _ in range(n))


def pair(seed=1, rules="argentine"):
    """The host Ana and her friend Beto, joined: (host, beto, the join link)."""
    draw = entropy_from(seed)
    host = linkgame.create(variant(rules), HOST_SIDES, draw(32), draw(16))
    beto = linkgame.join(host.invitation(1), "Beto", draw(32))
    join = beto.link()
    assert host.merge(join) == linkgame.UPDATED
    return host, beto, join


def play_turn(record, strategy=chase):
    """The device plays while it is its turn; returns the link it sends."""
    while record.my_turn():
        record.play(strategy(record.game))
    return record.link()


def first_mover(seed=1):
    """A pair in which Beto has played his first turn and Ana holds his link: (host, beto,
    links sent in order)."""
    host, beto, join = pair(seed)
    links = [join]
    sender, receiver = host, beto
    moved = set()
    while 1 not in moved:
        token = play_turn(sender)
        moved.add(sender.device)
        links.append(token)
        assert receiver.merge(token) == linkgame.UPDATED
        sender, receiver = receiver, sender
    return host, beto, links


def repack(token, change):
    """The token with its document changed by ``change(doc)`` and packed again (a valid
    check: what a person who edits a link on purpose sends)."""
    doc = share.unpack(token, linkgame.PREFIX)
    change(doc)
    return share.pack(doc, linkgame.PREFIX)


def refused(code, call, *args):
    with pytest.raises(SaveError) as info:
        call(*args)
    assert info.value.code == code, (info.value.code, info.value.params)
    return info.value.params


# --- documents ------------------------------------------------------------------------------

def test_documents_round_trip_through_links_and_local_records():
    host, beto, _ = first_mover()
    for record in (host, beto):
        local = json.loads(json.dumps(record.local()))
        again = linkgame.LinkGame.from_local(local)
        assert again.to_json() == record.to_json() and again.game.history == record.game.history
        assert again.verification() == record.verification()
    token = beto.link() if not beto.my_turn() else host.link()
    doc, seat = linkgame.read(token)
    assert seat is None and doc["link"] == linkgame.FORMAT
    reader = linkgame.LinkGame(doc)  # a device that plays no side reads it all the same
    assert reader.game.totals() == host.game.totals() and reader.device is None
    assert linkgame.LinkGame(reader.to_json()).to_json() == reader.to_json()
    with pytest.raises(IllegalAction) as info:
        reader.link()
    assert info.value.code == "link.reader"


def test_secrets_never_travel():
    host, beto, links = first_mover()
    draw = entropy_from(2)
    fresh = linkgame.create(variant("argentine"), HOST_SIDES, draw(32), draw(16))
    for record, sent in ((host, links), (beto, links), (fresh, [fresh.invitation(1)])):
        secret = linkgame.b64(record.secret)
        top = linkgame.b64(linkdice.top(record.secret, record.id, record.length))
        for token in sent:
            text = json.dumps(share.unpack(token, linkgame.PREFIX))
            assert secret not in text and top not in text


def test_the_history_travels_with_a_hold_only_where_it_changes_a_roll():
    history = [{"rolloff": [[0, [3]], [1, [4]]]}, {"roll": [1, 2, 3, 4, 5]}, {"hold": [0]}, {"hold": [0, 1]},
               {"roll": [1, 2, 6, 6, 6]}, {"roll": [1, 2, 6, 5, 4]}, {"hold": [2]}, {"score": "sixes"},
               {"roll": [1, 1, 1, 1, 1]}, {"hold": [1, 0]}]
    assert linkgame.canonical(history) == [
        {"roll": [1, 2, 3, 4, 5]}, {"hold": [0, 1]}, {"roll": [1, 2, 6, 6, 6]}, {"roll": [1, 2, 6, 5, 4]},
        {"score": "sixes"}, {"roll": [1, 1, 1, 1, 1]}, {"hold": [0, 1]}]


# --- whole games ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_whole_two_side_game_by_link_ends_the_same_and_verified_on_both_devices(name):
    result = linkmatch.play(variant(name), ["Ana", "Beto"], entropy=entropy_from(name))
    host, beto = result["devices"][0], result["devices"][1]
    assert host.game.over and beto.game.over
    assert host.game.sheets == beto.game.sheets and host.game.history == beto.game.history
    assert host.verification() == beto.verification() == {"state": "verified", "pending": []}
    assert not host.owes() and not beto.owes()
    kinds = Counter(link["kind"] for link in result["links"])
    assert kinds["invitation"] == kinds["join"] == 1 and kinds["start"] <= 1
    turns = len(host.game.rules.categories) // host.game.rules.boxes_per_turn * 2
    assert kinds["move"] + kinds["start"] + kinds["closing"] in (turns, turns + 1) or host.game.auto_win


def test_a_whole_generala_game_fits_in_two_thousand_characters():
    """The longest link of a two-side Generala game is its last; with "#play=" before it, it fits
    in 2,000 characters of a URL's fragment, even when every turn rolls three times."""
    longest = []
    for seed in range(12):
        result = linkmatch.play(variant("argentine"), ["Ana Belén", "Roberto"], entropy=entropy_from(seed))
        longest.append(max(link["chars"] for link in result["links"]))
    assert len("#play=") + max(longest) <= 2000, longest


def test_three_sides_with_a_computer_on_the_host():
    result = linkmatch.play(variant("puerto-rican"), ["Ana", "Beto", "Bot"], {2: "beginner"},
                            entropy=entropy_from(3))
    devices = result["devices"]
    assert sorted(devices) == [0, 1]
    assert devices[0].game.sheets == devices[1].game.sheets and devices[0].game.over
    assert all(record.verification()["state"] == "verified" for record in devices.values())


def test_four_devices_pass_the_game_round():
    result = linkmatch.play(variant("bulgarian"), ["Ana", "Beto", "Ceci", "Dani"], entropy=entropy_from(4))
    devices = result["devices"]
    sheets = {json.dumps(record.game.sheets) for record in devices.values()}
    assert len(sheets) == 1 and all(r.verification()["state"] == "verified" for r in devices.values())


# --- how links are taken ----------------------------------------------------------------------

def test_the_same_link_twice_changes_nothing_and_an_older_link_says_so():
    host, beto, links = first_mover()
    newest = links[-1]
    holder = host if host.merge(newest) == linkgame.UNCHANGED else beto
    before = holder.to_json()
    assert holder.merge(newest) == linkgame.UNCHANGED and holder.to_json() == before
    assert holder.merge(links[-3]) == linkgame.OLDER and holder.to_json() == before
    assert host.merge(links[0]) == linkgame.OLDER  # the join, once the game has moved on


def test_a_link_that_rewrites_a_stored_move_is_refused_naming_it():
    host, beto, links = first_mover()
    receiver = host if host.playing() == 0 else beto
    sender = beto if receiver is host else host

    def rewrite(doc):
        for action in doc["history"]:
            if "score" in action:
                action["score"] = "ones" if action["score"] != "ones" else "twos"
                return
    params = refused("link.rewrites", receiver.merge, repack(links[-1], rewrite))
    first = receiver.game.order[0]
    mine = next(a for a in receiver.history if "score" in a)
    assert params == {"side": first, "name": receiver.names[first], "turn": 1, "mine": mine,
                      "theirs": {"score": "ones" if mine["score"] != "ones" else "twos"}}
    # the sender played its turn again after sending it: the receiver holds the first
    assert sender.merge(links[-1]) == linkgame.UNCHANGED


def test_a_move_sent_is_final():
    host, beto, _ = pair(5)
    mover = host if host.my_turn() else beto
    if mover is beto:
        assert beto.merge(host.link()) == linkgame.UPDATED
    mover.play({"roll": None})
    first_box = mover.game.rules.categories[0]
    mover.play({"score": first_box})
    mover.play({"undo": True})  # not sent yet: it may be taken back
    mover.play({"score": first_box})
    mover.link()
    with pytest.raises(IllegalAction) as info:
        mover.play({"undo": True})
    assert info.value.code == "link.sent"
    other = beto if mover is host else host
    with pytest.raises(IllegalAction) as info:
        mover.play({"roll": None})
    assert info.value.code == "link.not_yours" and info.value.params["name"] == other.names[other.device]


def test_a_side_cannot_roll_without_every_other_side_s_part():
    """Before Beto has played, Ana's device has no value of his for his own turn: she
    cannot roll his dice (nor could anyone else)."""
    host, beto, _ = pair(6)
    if host.my_turn():
        token = play_turn(host)
        beto.merge(token)
    else:
        beto.merge(host.link())
    assert beto.my_turn() and not host.my_turn()
    with pytest.raises(IllegalAction) as info:
        host.game.roll()
    assert info.value.code == "link.values_missing" and info.value.params["name"] == "Beto"


def test_an_early_value_waits_for_its_chain_then_is_verified():
    """When Ana plays first, her dice use the value Beto gave as he joined; her device says
    so (pending) until Beto's chain shows it, with his first move."""
    for seed in range(40):
        host, beto, _ = pair(seed)
        if host.my_turn():
            break
    token = play_turn(host)
    assert host.verification() == {"state": "pending", "pending": [1]}
    beto.merge(token)
    assert beto.verification() == {"state": "verified", "pending": []}  # his own: his device knows it
    back = play_turn(beto)
    assert host.merge(back) == linkgame.UPDATED
    assert host.verification() == {"state": "verified", "pending": []}


# --- what is refused ----------------------------------------------------------------------------

def test_a_forged_die_is_refused_naming_the_side_and_the_roll():
    host, beto, links = first_mover()
    receiver = host if host.playing() == 0 else beto

    def forge(doc):
        rolls = [a for a in doc["history"] if "roll" in a]
        last = rolls[-1]["roll"]
        last[0] = last[0] % 6 + 1
        return doc
    params = refused("link.dice_forged", linkgame.LinkGame, linkgame.read(repack(links[-1], forge))[0])
    assert params["name"] in ("Ana", "Beto") and params["dice"] != params["derived"]
    refused("link.dice_forged", receiver.merge, repack(links[-1], forge))


def test_a_wrong_revealed_secret_is_refused_naming_the_side():
    host, beto, links = first_mover()

    def wrong(doc):
        k, element = doc["top"][1]
        doc["top"][1] = [k, linkgame.b64(bytes(32))]
    params = refused("link.secret_wrong", host.merge, repack(links[-1], wrong))
    assert params == {"side": 1, "name": "Beto"}


def test_a_wrong_early_value_is_refused_once_the_chain_shows_it():
    """A modified client joins with values that are not its chain's: Ana plays her first
    turn with one of them; Beto's first move shows his chain, and her device refuses it,
    naming Beto and the turn of that value."""
    for seed in range(40):
        draw = entropy_from(seed)
        host = linkgame.create(variant("argentine"), HOST_SIDES, draw(32), draw(16))
        beto = linkgame.join(host.invitation(1), "Beto", draw(32))
        join = beto.link()
        true_early = linkgame.read(join)[0]["early"][1]
        lie = lambda doc: doc["early"].__setitem__(1, [[t, d, linkgame.b64(bytes(16))] for t, d, _ in true_early])
        host.merge(repack(join, lie))
        if host.my_turn():
            break
    token = play_turn(host)
    modified = pytest.MonkeyPatch()  # Beto's client no longer checks its own values
    modified.setattr(linkgame.LinkGame, "_check_early", lambda self: None)
    modified.setattr(linkgame.LinkGame, "_check_roll", lambda self, recorded: None)
    try:
        beto.early[1] = {(t, d): bytes(16) for t, d, _ in true_early}
        assert beto.merge(token) == linkgame.UPDATED
        move = play_turn(beto)
    finally:
        modified.undo()
    params = refused("link.value_wrong", host.merge, move)
    assert params == {"side": 1, "name": "Beto", "turn": 1}


def test_a_swapped_commitment_is_refused():
    host, beto, links = first_mover()
    draw = entropy_from(9)
    other = linkgame.join(linkgame.create(variant("argentine"), HOST_SIDES, draw(32), draw(16)).invitation(1),
                          "Beto", draw(32))

    def swap(doc):
        doc["commit"][1] = linkgame.b64(linkdice.element(other.secret, host.id, host.length, 0))
    # a device that holds Beto's commitment names the swap; a reader sees the chain not match
    assert refused("link.commitment_changed", host.merge, repack(links[-1], swap)) == {"side": 1, "name": "Beto"}
    assert refused("link.secret_wrong", linkgame.LinkGame, linkgame.read(repack(links[-1], swap))[0])["side"] == 1

    def exchange(doc):
        doc["commit"][0], doc["commit"][1] = doc["commit"][1], doc["commit"][0]
    assert refused("link.commitment_changed", beto.merge, repack(links[-1], exchange)) == {"side": 0, "name": "Ana"}
    assert refused("link.secret_wrong", linkgame.LinkGame, linkgame.read(repack(links[-1], exchange))[0])["side"] == 0


def test_damaged_and_edited_tokens_are_refused_with_their_reason():
    host, beto, links = first_mover()
    token = links[-1]
    i = len(token) // 2
    damaged = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1:]
    assert refused_code(host.merge, damaged) in ("link.check", "link.altered")
    for cut in range(1, 9):  # a link cut short, whatever its length then
        assert refused_code(host.merge, token[:-cut]) in ("link.check", "link.altered")
    assert refused_code(host.merge, token.replace("p1.", "g1.", 1)) == "link.not_link"
    assert refused_code(host.merge, token[:10] + "!" + token[11:]) == "link.characters"
    assert refused_code(host.merge, repack(token, lambda d: d.update(link=linkgame.FORMAT + 1))) == "link.newer"
    assert refused_code(host.merge, repack(token, lambda d: d.update(id=linkgame.b64(bytes(16))))) in (
        "link.secret_wrong", "link.other_game")
    assert refused_code(host.merge, repack(token, lambda d: d["history"].append({"score": "nope"}))) == "link.illegal"
    assert refused_code(host.merge, repack(token, lambda d: d.update(options={**d["options"], "served_bonus": 10}))) \
        == "link.rules_changed"
    assert refused_code(host.merge, repack(token, lambda d: d["sides"][1].update(name="Roberto"))) == "link.side_changed"
    assert refused_code(host.merge, repack(token, lambda d: d.pop("early"))) == "link.field"
    assert refused("link.field", host.merge, repack(token, lambda d: d["options"].update(name="x"))) \
        == {"field": "options"}
    # the host gives no early values: one in its slot is a damaged field, not the host's fault
    assert refused("link.field", host.merge,
                   repack(token, lambda d: d["early"][0].append([0, 1, linkgame.b64(bytes(16))]))) == {"field": "early"}
    other = pair(11)[2]
    assert refused_code(host.merge, other) == "link.other_game"


def refused_code(call, *args):
    with pytest.raises(SaveError) as info:
        call(*args)
    return info.value.code


def test_an_invitation_is_joined_once_a_side():
    draw = entropy_from(12)
    host = linkgame.create(variant("double"), HOST_SIDES, draw(32), draw(16))
    invitation = host.invitation(1)
    beto = linkgame.join(invitation, "Beto", draw(32))
    assert host.merge(beto.link()) == linkgame.UPDATED
    intruder = linkgame.join(invitation, "Carla", draw(32))
    params = refused("link.join_twice", host.merge, intruder.link())
    assert params == {"side": 1, "name": "Beto", "got": "Carla"}
    assert refused_code(linkgame.join, beto.link(), "Carla", draw(32)) == "link.not_invitation"


def test_a_seat_is_taken_only_with_its_own_invitation():
    """Ceci, with her own invitation, also fills Beto's empty seat with a chain of hers: the
    host refuses her link, naming the seat she had no invitation for; the real Beto then
    joins. An invitation without its seat's ticket (or with another seat's) is no invitation."""
    draw = entropy_from(31)
    sides = HOST_SIDES + [{"name": None, "player": "human"}]
    host = linkgame.create(variant("argentine"), sides, draw(32), draw(16))
    invitations = {side: host.invitation(side) for side in (1, 2)}
    ceci = linkgame.join(invitations[2], "Ceci", draw(32))
    fake = linkgame.join(invitations[1], "Beto", draw(32))  # a chain of Ceci's for Beto's seat

    def both_seats(doc):
        mine = fake.to_json()
        for field in ("commit", "seal"):
            doc[field][1] = mine[field][1]
        doc["sides"][1] = {"name": "Beto", "player": "human"}
    params = refused("link.seat_uninvited", host.merge, repack(ceci.link(), both_seats))
    assert params == {"side": 1, "name": "Beto"}
    beto = linkgame.join(invitations[1], "Beto", draw(32))
    assert host.merge(beto.link()) == linkgame.UPDATED and host.merge(ceci.link()) == linkgame.UPDATED
    assert host.joined and host.names == ["Ana", "Beto", "Ceci"]
    taken = host.invitation(1)
    assert refused("link.seat_taken", linkgame.join, taken, "Carla", draw(32)) == {"side": 1, "name": "Beto"}
    for change in (lambda d: d.pop("ticket"), lambda d: d["ticket"].__setitem__(0, 2)):
        assert refused_code(linkgame.join, repack(invitations[1], change), "Beto", draw(32)) == "link.not_invitation"
    forged = repack(linkgame.join(invitations[2], "Dora", draw(32)).link(),
                    lambda d: d["ticket"].__setitem__(1, linkgame.b64(bytes(16))))
    fresh = linkgame.create(variant("argentine"), sides, host.secret, host.id)
    assert refused_code(fresh.merge, forged) == "link.seat_uninvited"


# --- the dice no side can choose -------------------------------------------------------------------

def first_roll_of(host_secret, beto_secret, game_id, first):
    """The first roll of ``first``'s first turn (turn 0), as the devices derive it."""
    rules = variant("argentine")
    length = 2 * rules.turns + 1
    x = {0: linkdice.element(host_secret, game_id, length, 2), 1: linkdice.element(beto_secret, game_id, length, 2)}
    values = [linkdice.value(x[d], game_id, 2, first) for d in (0, 1)]
    return linkdice.faces(linkdice.turn_key(game_id, 2, first, values), 0, 5)


def test_a_side_cannot_pick_a_secret_that_fixes_its_own_first_roll():
    """Beto commits (joins) knowing only Ana's commitment, which hides her chain. Whatever
    secret he picks, his first roll depends on Ana's element he cannot know: against
    twenty secrets Ana may hold, each of his secrets gives (nearly) twenty different first
    rolls, and the secret that would give him five alike against a guess of hers gives
    five alike against her real one no more often than chance. The same holds for Ana,
    who commits first, against Beto's."""
    draw = entropy_from(13)
    game_id = draw(16)
    hers = [draw(32) for _ in range(20)]
    for _ in range(30):
        his = draw(32)
        rolls = {first_roll_of(h, his, game_id, 1) for h in hers}
        assert len(rolls) >= 18
        rolls = {first_roll_of(hers[0], b, game_id, 0) for b in hers}
        assert len(rolls) >= 18
    # grinding: among 3,000 secrets, pick those that give five alike against a guess
    guess, real = hers[0], hers[1]
    chosen = [b for b in (draw(32) for _ in range(3000)) if len(set(first_roll_of(guess, b, game_id, 1))) == 1]
    assert chosen  # five alike come 6 times in 7,776 rolls: with 3,000 tries, a few
    assert sum(len(set(first_roll_of(real, b, game_id, 1))) == 1 for b in chosen) <= 1


def test_the_dice_stream_gives_every_face_alike():
    key = linkdice.turn_key(bytes(16), 2, 0, [bytes(16), bytes(16)])
    counts = Counter(linkdice.faces(key, 0, 60_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom: p = 0.001
    assert linkdice.faces(key, 7, 5) == linkdice.faces(key, 0, 12)[7:]


def test_a_chain_shows_what_is_below_and_hides_what_is_above():
    secret, gid = bytes(range(32)), bytes(16)
    chain = [linkdice.element(secret, gid, 10, k) for k in range(11)]
    assert all(linkdice.down(chain[k], gid, k) == chain[k - 1] for k in range(1, 11))
    assert linkdice.walk(chain[7], gid, 7, 0) == chain[0]
    assert len(set(chain)) == 11
    with pytest.raises(ValueError):
        linkdice.top(bytes(8), gid, 10)


# --- the worker's requests ------------------------------------------------------------------------

def test_the_worker_plays_a_game_by_link_between_two_sessions():
    draw = entropy_from(14)
    ana, beto = app.Session(), app.Session()
    made = ana.handle({"op": "link_new", "variant": "argentine", "sides": HOST_SIDES, "entropy": draw(48).hex()})
    assert made["ok"] and made["status"]["device"] == 0 and "view" not in made
    invitation = made["invitations"][0]["token"]
    read = beto.handle({"op": "link_read", "token": invitation})
    assert read["for"] == 1 and read["sides"][1]["name"] is None and read["status"]["device"] is None
    joined = beto.handle({"op": "link_join", "token": invitation, "name": "Beto", "entropy": draw(32).hex()})
    assert joined["ok"] and joined["status"]["joined"]
    local = {0: made["local"], 1: joined["local"]}
    sessions = {0: ana, 1: beto}
    opened = ana.handle({"op": "link_open", "token": joined["link"], "local": local[0]})
    assert opened["outcome"] == "updated" and opened["view"]["current"] is not None
    local[0] = opened["local"]
    device = 0
    for _ in range(200):
        session = sessions[device]
        status = session.handle({"op": "view"}) and app.link_status(session.link)
        if status["mine"]:
            reply = session.handle({"op": "roll"})
            assert reply["ok"] and reply["local"]["doc"]["history"]
            box = next(cell["request"] for row in reply["view"]["rows"] for cell in [row["cells"][device]]
                       if cell.get("playable"))
            reply = session.handle(box)
            assert reply["ok"], reply
            local[device] = reply["local"]
            if reply["status"]["mine"]:
                continue
        sent = session.handle({"op": "link_send"})
        assert sent["ok"], sent
        local[device] = sent["local"]
        other = 1 - device
        opened = sessions[other].handle({"op": "link_open", "token": sent["link"], "local": local[other]})
        assert opened["outcome"] == "updated", opened
        local[other] = opened["local"]
        again = sessions[other].handle({"op": "link_open", "token": sent["link"], "local": local[other]})
        assert again["outcome"] == "unchanged"
        if opened["status"]["over"]:
            break
        device = other
    assert opened["status"]["verification"]["state"] == "verified"
    reloaded = app.Session().handle({"op": "link_load", "local": local[other]})
    assert reloaded["view"]["over"] and reloaded["status"]["over"]
    # a rewritten or damaged link answers its refusal, coded, with the view unchanged
    tampered = sent["link"][:40] + ("A" if sent["link"][40] != "A" else "B") + sent["link"][41:]
    reply = sessions[other].handle({"op": "link_open", "token": tampered, "local": local[other]})
    assert reply["ok"] is False and reply["code"] in ("link.check", "link.altered") and reply["kind"] == "SaveError"
    short = ana.handle({"op": "link_new", "sides": HOST_SIDES, "entropy": "00" * 20})
    assert short["code"] == "link.entropy" and short["params"] == {"min": 48}


@pytest.fixture
def served_first_turn(monkeypatch):
    """Every game's first turn shows 66666 (a served Generala), each value it needs asked for
    as ever."""
    fresh = linkgame.LinkGame._fresh

    def served(self, count, position, error):
        dice = fresh(self, count, position, error)
        return (6,) * count if self.game.turn == 0 else dice
    monkeypatch.setattr(linkgame.LinkGame, "_fresh", served)


def test_a_game_won_before_the_friend_s_first_turn_ends_with_his_closing_link(served_first_turn):
    """Ana plays first and her first roll is a served Generala (forced here: every first
    turn shows 66666): the game is over before Beto's chain has shown the early value her
    dice rest on. Her device says pending, naming Beto; his closing link reveals his whole
    chain, and then both say verified."""
    for seed in range(40):
        result = linkmatch.play(variant("argentine"), ["Ana", "Beto"], entropy=entropy_from(seed))
        if result["devices"][0].game.order[0] == 0:
            break
    host, beto = result["devices"][0], result["devices"][1]
    assert host.game.auto_win == {"side": 0, "kind": "served-generala"}
    kinds = [link["kind"] for link in result["links"]]
    assert kinds == ["invitation", "join", "move", "closing"]
    assert host.verification() == beto.verification() == {"state": "verified", "pending": []}
    assert not host.owes() and not beto.owes()  # his closing link sent


def test_the_device_that_owes_its_closing_link_knows_it(served_first_turn):
    """The served win again, link by link: Beto's device, once it has Ana's last link, says
    it owes its closing link (the page hands it over); Ana's, which sent hers, owes none;
    his link sent, he owes none either."""
    for seed in range(40):
        host = linkgame.create(variant("argentine"), [{"name": "Ana"}, {"name": None}],
                               entropy_from(seed)(32), entropy_from(seed + 100)(linkgame.ID_SIZE))
        beto = linkgame.join(host.invitation(1), "Beto", entropy_from(seed + 200)(32))
        assert host.merge(beto.link()) == linkgame.UPDATED
        if host.my_turn():
            break
    assert not host.owes() and not beto.owes()
    host.play({"roll": None})
    assert host.game.over and host.owes()  # over, its own dice not yet shown: its link owes them
    last = host.link()
    assert not host.owes() and host.verification() == {"state": "pending", "pending": [1]}
    assert beto.merge(last) == linkgame.UPDATED
    assert beto.owes() and beto.verification()["state"] == "verified"
    assert host.merge(beto.link()) == linkgame.UPDATED
    assert not beto.owes() and host.verification() == {"state": "verified", "pending": []}


def test_an_updated_link_opens_a_replay_of_the_moves_this_device_had_not_seen():
    from generala.app import Session
    ana, beto = Session(), Session()
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    made = ana.handle({"op": "link_new", "variant": "argentine", "sides": sides, "entropy": "ab" * 48})
    joined = beto.handle({"op": "link_join", "token": made["invitations"][0]["token"], "name": "Beto",
                          "entropy": "cd" * 32})
    opened = ana.handle({"op": "link_open", "token": joined["link"], "local": made["local"]})
    assert opened["outcome"] == "updated" and "catch_up" not in opened  # joined: no move yet
    devices, local = {0: ana, 1: beto}, {0: opened["local"], 1: joined["local"]}
    mover = opened["status"]["playing"]
    if mover == 1:  # the friend plays first: the host's start link first
        start = ana.handle({"op": "link_send"})
        local[1] = beto.handle({"op": "link_open", "token": start["link"], "local": local[1]})["local"]
    session = devices[mover]
    session.handle({"op": "link_load", "local": local[mover]})
    rolled = session.handle({"op": "roll"})
    box = next(c["request"] for row in rolled["view"]["rows"] for c in [row["cells"][mover]] if c.get("playable"))
    session.handle(box)
    sent = session.handle({"op": "link_send"})
    other = 1 - mover
    taken = devices[other].handle({"op": "link_open", "token": sent["link"], "local": local[other]})
    assert taken["outcome"] == "updated"
    assert taken["catch_up"]["from"] == 0 and taken["catch_up"]["steps"] >= 2
    last = devices[other].handle({"op": "replay_at", "step": taken["catch_up"]["steps"]})
    assert last["ok"] and last["view"]["sides"][mover]["total"] == taken["view"]["sides"][mover]["total"]
    again = devices[other].handle({"op": "link_open", "token": sent["link"], "local": taken["local"]})
    assert again["outcome"] == "unchanged" and "catch_up" not in again
    replay = Session().handle({"op": "link_replay", "local": taken["local"]})
    assert replay["ok"] and replay["view"]["replay"]["steps"] == taken["catch_up"]["steps"]


def test_an_export_carries_a_game_by_link_and_its_import_checks_it():
    import json

    from generala.app import Session
    ana = Session()
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    made = ana.handle({"op": "link_new", "variant": "argentine", "sides": sides, "entropy": "ab" * 48})
    doc = {"format": "generala-export", "version": 1, "exported": "",
           "games": [{"id": "link:x", "when": None, "finished": False, "link": made["local"]}]}
    reply = Session().handle({"op": "import", "text": json.dumps(doc)})
    assert reply["ok"], reply
    [game] = reply["games"]
    # the record and its status as JSON texts (the page takes them through JavaScript)
    assert json.loads(game["link"]) == made["local"] and game["view"] is None
    status = json.loads(game["status"])
    assert status["device"] == 0 and not status["joined"]
    broken = json.loads(json.dumps(doc))
    broken["games"][0]["link"]["secret"] = "AAAA"
    refused = Session().handle({"op": "import", "text": json.dumps(broken)})
    assert refused["ok"] is False and refused["code"] == "import.game"


def test_a_host_waiting_for_joins_gets_its_invitations_again_from_its_stored_record():
    """An exported host (the file holds its record, not the invitations) opens on another
    device and invites the friend who has not joined yet; the game then starts for all three."""
    draw = entropy_from(21)
    sides = HOST_SIDES + [{"name": None, "player": "human"}]
    made = app.Session().handle({"op": "link_new", "variant": "argentine", "sides": sides,
                                 "entropy": draw(48).hex()})
    first = {inv["side"]: inv["token"] for inv in made["invitations"]}
    beto = linkgame.join(first[1], "Beto", draw(32))
    host = app.Session()
    opened = host.handle({"op": "link_open", "token": beto.link(), "local": made["local"]})
    assert opened["outcome"] == "updated" and not opened["status"]["joined"]
    loaded = app.Session().handle({"op": "link_load", "local": opened["local"]})
    again = {inv["side"]: inv["token"] for inv in loaded["invitations"]}
    assert sorted(again) == [1, 2] and "view" not in loaded
    ceci = linkgame.join(again[2], "Ceci", draw(32))
    committed = host.handle({"op": "link_open", "token": ceci.link(), "local": opened["local"]})
    # every device has committed (Ceci's invitation showed Beto's commitment: her join
    # reveals at once); Beto reveals once the host's link shows him every commitment
    assert committed["outcome"] == "updated" and committed["status"]["joined"] and "invitations" not in committed
    assert committed["status"]["reveals"] == [1] and "view" not in committed
    sent = host.handle({"op": "link_send"})
    assert beto.merge(sent["link"]) == linkgame.UPDATED
    started = host.handle({"op": "link_open", "token": beto.link(), "local": sent["local"]})
    assert started["outcome"] == "updated" and started["status"]["reveals"] == []
    assert started["view"]["current"] is not None
    record = linkgame.LinkGame.from_local(started["local"])
    devices = {0: record, 1: beto, 2: ceci}
    for device in (1, 2):
        assert devices[device].merge(record.link()) == linkgame.UPDATED
    assert {json.dumps(d.game.sheets) for d in devices.values()} == {json.dumps(record.game.sheets)}
    joined = app.Session().handle({"op": "link_load", "local": beto.local()})
    assert "invitations" not in joined


# --- records ------------------------------------------------------------------------------

def test_a_finished_game_by_link_counts_in_the_records_and_a_tampered_one_is_skipped():
    import json

    from generala.modes.records import records
    result = linkmatch.play(variant("argentine"), ["Ana", "Beto"], entropy=entropy_from("records"))
    beto = result["devices"][1]
    local = beto.local()
    totals = beto.game.totals()
    reply = app.Session().handle({"op": "records", "entries": [{"link": local, "when": "2026-12-01 10:00"}]})
    assert reply["ok"], reply
    players = {p["name"]: p for p in reply["records"]["players"]}
    assert set(players) == {"Ana", "Beto"} and reply["records"]["skipped"] == 0
    for side, name in enumerate(["Ana", "Beto"]):
        assert players[name]["games"] == 1 and players[name]["variant"] == "argentine"
        assert players[name]["best"] == totals[side]
        assert players[name]["scores"] == [{"when": "2026-12-01 10:00", "score": totals[side]}]
    assert players["Ana"]["wins"] + players["Beto"]["wins"] >= 1

    def tampered(change):
        copy = json.loads(json.dumps(local))
        change(copy)
        return {"link": copy, "when": None}

    def forge_die(copy):
        roll = next(a for a in reversed(copy["doc"]["history"]) if "roll" in a)["roll"]
        roll[0] = roll[0] % 6 + 1

    def other_box(copy):
        move = next(a for a in reversed(copy["doc"]["history"]) if "score" in a)
        move["score"] = "ones" if move["score"] != "ones" else "twos"

    def wrong_secret(copy):
        copy["secret"] = linkgame.b64(bytes(32))

    def extra_field(copy):
        copy["trusted"] = True
    bad = [tampered(change) for change in (forge_die, other_box, wrong_secret, extra_field)]
    bad += [{"link": "nonsense", "when": None}, {"link": None}, {"when": None}, "text"]
    counted = records([{"link": local, "when": None}] + bad)
    assert counted["skipped"] == len(bad)
    assert [p["games"] for p in counted["players"]] == [1, 1]


def test_a_game_by_link_not_yet_begun_or_not_over_counts_nothing():
    from generala.modes.records import records
    draw = entropy_from(21)
    waiting = linkgame.create(variant("argentine"), HOST_SIDES, draw(32), draw(16))
    host, beto, links = first_mover(21)
    assert waiting.game is None and not host.game.over
    assert records([{"link": waiting.local(), "when": None}, {"link": host.local(), "when": None}]) \
        == {"players": [], "skipped": 0}
