"""A whole game by link between devices held in memory: every link passed as text.

What the page will do with two browsers, done here with two (or more) ``LinkGame``
records: the host invites, each friend joins, and each device plays its turns and sends
its link to the device that plays next (the last link to every other device). Each link
is merged by its receiver exactly as a link opened in the page is; nothing but the link
text passes between devices. ``python -m generala link-play`` runs one and prints what
passed (each link's kind and length) and how it ended.
"""
from __future__ import annotations

import secrets

from . import linkgame
from ..ai.strategies import chase
from ..rules.sides import computer_player


def play(rules, names: list[str], computers: dict[int, str] | None = None, *, strategy=chase,
         entropy=secrets.token_bytes) -> dict:
    """Play ``rules`` between ``names`` (side 0 the host); ``computers`` maps a side to a
    computer level (played on the host). ``strategy(game)`` chooses every side's moves.
    Returns ``{"devices": {side: LinkGame}, "links": [{"kind", "from", "to", "chars"}]}``."""
    computers = computers or {}
    sides = [{"name": name if i == 0 or i in computers else None,
              "player": computer_player(computers[i]) if i in computers else "human"} for i, name in enumerate(names)]
    host = linkgame.create(rules, sides, entropy(32), entropy(linkgame.ID_SIZE))
    devices = {0: host}
    links: list[dict] = []

    def send(kind: str, sender: int, token: str, to: list[int]) -> None:
        for receiver in to:
            links.append({"kind": kind, "from": sender, "to": receiver, "chars": len(token)})
            outcome = devices[receiver].merge(token)
            if outcome != linkgame.UPDATED:
                raise AssertionError(f"{kind} link from {sender} to {receiver}: {outcome}")

    for side in host.devices[1:]:
        invitation = host.invitation(side)
        links.append({"kind": "invitation", "from": 0, "to": side, "chars": len(invitation)})
        devices[side] = linkgame.join(invitation, names[side], entropy(32))
    for side in host.devices[1:]:
        send("join", side, devices[side].link(), [0])
    # three or more devices: every friend joined with its commitment alone; the host's link
    # says every device has committed, and each friend answers with its roll-off element
    while host.game is None:
        send("commitments", 0, host.link(), host.waiting_reveals())
        for side in host.devices[1:]:
            if devices[side].reveal_upto() >= 1 and host._known(side) < 1:
                send("reveal", side, devices[side].link(), [0])
    sender, kind = 0, "start"
    while True:
        device = devices[sender]
        while device.my_turn():
            device.play(strategy(device.game))
            kind = "move"
        token = device.link()
        if device.game.over:
            send(kind, sender, token, [d for d in devices if d != sender])
            break
        receiver = device.playing()
        send(kind, sender, token, [receiver])
        sender, kind = receiver, "move"
    # a friend whose early values no chain has shown yet (the game ended before its first
    # turn) sends its whole chain to the others: its closing link
    for side in [d for d, record in sorted(devices.items()) if record.owes()]:
        send("closing", side, devices[side].link(), [d for d in devices if d != side])
    return {"devices": devices, "links": links}


def summary(result: dict) -> dict:
    """What a played game shows: its links' kinds and lengths, each device's sheets and its
    dice's verification."""
    devices = result["devices"]
    return {
        "links": [f"{link['kind']} {link['from']}->{link['to']}: {link['chars']}" for link in result["links"]],
        "longest": max(link["chars"] for link in result["links"]),
        "totals": {side: record.game.totals() for side, record in devices.items()},
        "verified": {side: record.verification()["state"] for side, record in devices.items()},
    }
