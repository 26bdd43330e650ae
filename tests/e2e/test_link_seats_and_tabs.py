"""Play by link with three devices, seats and tabs (docs/link-play.md): every device commits
before any reveals (the host's link after the last join, each friend's answer), a seat is
taken only through its own invitation, and one game by link is played in one tab at a
time. Devices are browser contexts as in test_link_play.py; only the Link fields' text
passes between them."""
from __future__ import annotations

import json

import pytest
from gamepage import leave
from test_link_play import Device, axe_clean, devices, play_to_the_end, two_devices, verified, won_at_a_first_roll  # noqa: F401

from e2e_support import boot


def three_devices(devices, variant="double"):
    """Ana invites Beto and Ceci; both join; Ana takes both joins: (ana, beto, ceci, the
    invitations)."""
    ana, beto, ceci = devices(), devices(), devices()
    ana.boot()
    invitations = ana.start(variant, "Ana", ["human", "human"])
    joins = [beto.join(invitations[0], "Beto"), ceci.join(invitations[1], "Ceci")]
    ana.open(joins[0])
    assert ana.state() == "invitations"  # Ceci's commitment has not come: nothing revealed yet
    ana.open(joins[1])
    return ana, beto, ceci, invitations


def test_three_devices_commit_first_then_reveal_and_play_to_the_end(devices):
    ana, beto, ceci, _ = three_devices(devices)
    # every device has committed: the host's link goes to both friends, each adds its part
    assert ana.state() == "handover" and ana.page.get_attribute("#linkplay", "data-to") == "1,2"
    assert "each friend's device adds its part" in ana.page.inner_text("#link-stage-help")
    call = ana.link()
    beto.open(call)
    assert beto.state() == "handover" and beto.page.inner_text("#linkplay-title") == \
        "Everyone has joined. Send this link back to Ana"
    ana.open(beto.link())
    assert ana.state() == "handover" and ana.page.get_attribute("#linkplay", "data-to") == "2"
    ceci.open(call)
    # the last part (the roll-off, then the game), pasted with spaces inside: they are dropped
    reveal = ceci.link()
    n = ana.opened()
    ana.page.fill("#link-paste-field", reveal[:30] + "  " + reveal[30:60] + " " + reveal[60:])
    ana.page.click("#link-paste button[type=submit]")
    ana.page.wait_for_function("n => +(document.getElementById('linkplay')?.dataset.opened || 0) > n", arg=n)
    for friend in (beto, ceci):  # their parts are taken: they wait for the game on the home screen
        friend.page.click('#linkplay [data-link="home"]')
        friend.page.wait_for_selector("#home:not([hidden])")
    players = {0: ana, 1: beto, 2: ceci}
    sent = play_to_the_end(players)
    for d in players.values():
        if d.state() == "handover":
            d.page.click('#linkplay [data-link="board"]')
        d.page.wait_for_selector("#over", state="visible")
        assert verified(d) == "verified"
    assert len(sent) > 5 or won_at_a_first_roll(ana)
    assert ana.totals() == beto.totals() == ceci.totals()


def test_a_seat_is_taken_only_through_its_own_invitation(devices):
    """Carla opens the invitation Beto already used and joins: Ana's device refuses her join,
    saying Beto holds that place. An invitation made once Beto had joined says at once that
    the place is taken."""
    ana, beto, carla = devices(), devices(), devices()
    ana.boot()
    invitations = ana.start("double", "Ana", ["human", "human"])
    ana.open(beto.join(invitations[0], "Beto"))
    carla_join = carla.join(invitations[0], "Carla")
    assert carla.page.inner_text("#linkplay-title") == "You joined. Send this link back to Ana"
    ana.open(carla_join)
    assert ana.state() == "refused"
    assert "Carla joined with the invitation Beto already used: that place is Beto's" in \
        ana.page.inner_text("#link-error")
    # Ana opens her game again: its invitations are made again from her record
    ana.page.click('#linkplay [data-link="home"]')
    gid = ana.page.get_attribute("[data-link-open]", "data-link-open")
    ana.page.click(f'[data-link-open="{gid}"]')
    ana.page.wait_for_selector("#linkplay:not([hidden])[data-state=invitations]")
    stored = json.loads(ana.page.evaluate("k => localStorage.getItem(k)", "generala.link." + gid))
    again = dict((side, token) for side, token in stored["invitations"])[1]
    dora = devices()
    boot(dora.page, "/#play=" + again)
    dora.page.wait_for_selector("#linkplay:not([hidden])[data-state=seat-taken]")
    assert dora.page.inner_text("#linkplay-title") == "This place is taken"
    assert "Beto has already joined Ana's game with this invitation" in dora.page.inner_text("#link-outcome")
    assert dora.page.locator("#link-name").count() == 0
    axe_clean(dora.page, "a place taken")


@pytest.mark.cross_engine
def test_one_game_by_link_is_played_in_one_tab_at_a_time(devices):
    """A link opened in a second tab of the same browser says the game is open in another
    tab and shows neither the board nor a link; once the first tab leaves the game, Try
    again takes it; the first tab, now stale, can no longer open it."""
    ana, beto = two_devices(devices)
    players = {0: ana, 1: beto}
    if ana.state() == "handover":  # Beto plays first: the start link
        beto.open(ana.link())
    mover = ana if ana.page.is_visible("#board") else beto
    link = mover.play_until_handover()
    receiver = beto if mover is ana else ana
    second = Device.__new__(Device)  # a second tab of the receiver's browser
    second.context, second.base_url, second.guard = receiver.context, receiver.base_url, receiver.guard
    second.page = receiver.context.new_page()
    second.boot()
    receiver.open(link)  # the first tab takes the link and shows the game
    receiver.page.wait_for_selector("#board:not([hidden])")
    again = receiver.page.url.split("#")[0] + "#play=" + link.split("#play=")[1]
    second.open(again)
    assert second.state() == "other-tab"
    assert "open in another tab of this browser" in second.page.inner_text("#link-outcome")
    assert second.page.is_hidden("#board") and second.page.locator("#linkplay [data-link-field]").count() == 0
    axe_clean(second.page, "open in another tab")
    # the first tab goes home: the game is free; Try again takes it in the second tab
    leave(receiver.page)
    receiver.page.wait_for_selector("#home:not([hidden]) [data-link-open]")
    n = second.opened()
    second.page.click('#linkplay [data-link="retry"]')
    second.page.wait_for_function(
        "n => +(document.getElementById('linkplay')?.dataset.opened || 0) > n", arg=n)
    assert second.state() == "unchanged"  # the first tab had taken this link already
    second.page.click('#linkplay [data-link="resume"]')
    second.page.wait_for_selector("#board:not([hidden]):not([inert])")
    # the first tab, stale now, cannot open the game while the second shows it
    gid = receiver.page.get_attribute("[data-link-open]", "data-link-open")
    receiver.page.click(f'[data-link-open="{gid}"]')
    receiver.page.wait_for_selector("#linkplay:not([hidden])[data-state=other-tab]")
    assert receiver.page.is_hidden("#board")
    # the second tab plays the turn and sends its link, which the other device takes
    sent = second.play_until_handover()
    players[0 if receiver is ana else 1] = second
    other = mover
    other.open(sent)
    assert other.state() in (None, "handover") and other.page.locator("#link-error").count() == 0
