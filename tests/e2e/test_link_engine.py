"""A game by link through the real engine worker, two browser contexts as two devices.

The page's screens for playing by link are still to come (docs/link-play.md, "To do");
this drives the worker's ``link_*`` requests and moves with ``generala.engine.call``, the
secrets drawn in each page from ``crypto.getRandomValues``, and passes nothing between
the two contexts but the link texts and each device's own stored record. A whole
two-side Generala game ends with the same sheets and every die verified on both; the
same link twice changes nothing, an older link says so, a damaged one is refused.

Each step is sent as one batch from one JavaScript task, starting with ``link_load`` of
the device's record: the page's own requests (its one-tap game, prepared while idle)
cannot come between them, since the worker takes requests strictly in order.
"""
from __future__ import annotations

import pytest
from e2e_support import STATE_LOG_SCRIPT, Guard, boot, first_game_prepared

CALL = """async (requests) => {
  const answers = requests.map((r) => generala.engine.call(JSON.stringify(r)));
  return (await Promise.all(answers)).map((text) => JSON.parse(text));
}"""
ENTROPY = """(n) => Array.from(crypto.getRandomValues(new Uint8Array(n)),
                      (b) => b.toString(16).padStart(2, "0")).join("")"""


def device(browser, base_url, guards):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    guards.append(guard)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    boot(page)
    first_game_prepared(page)  # the page's own `new` done: the engine's game is the test's now
    return context, page


def ask(page, *requests):
    replies = page.evaluate(CALL, list(requests))
    for reply in replies:
        assert reply.get("kind") != "InternalError", reply
    return replies


def test_a_whole_game_by_link_between_two_browsers(browser, base_url):
    guards: list[Guard] = []
    contexts = []
    try:
        ctx_a, ana = device(browser, base_url, guards)
        ctx_b, beto = device(browser, base_url, guards)
        contexts += [ctx_a, ctx_b]
        sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
        [made] = ask(ana, {"op": "link_new", "variant": "argentine", "sides": sides,
                           "entropy": ana.evaluate(ENTROPY, 48)})
        assert made["ok"], made
        invitation = made["invitations"][0]["token"]
        [read] = ask(beto, {"op": "link_read", "token": invitation})
        assert read["for"] == 1 and read["sides"][0]["name"] == "Ana"
        [joined] = ask(beto, {"op": "link_join", "token": invitation, "name": "Beto",
                              "entropy": beto.evaluate(ENTROPY, 32)})
        assert joined["ok"] and joined["status"]["joined"], joined
        pages, local = {0: ana, 1: beto}, {0: made["local"], 1: joined["local"]}
        [opened] = ask(ana, {"op": "link_open", "token": joined["link"], "local": local[0]})
        assert opened["outcome"] == "updated"
        local[0] = opened["local"]
        sent_links, mover = [], 0
        for _ in range(60):
            page = pages[mover]
            while True:
                [loaded] = ask(page, {"op": "link_load", "local": local[mover]})
                if not loaded["status"]["mine"]:
                    break
                _, rolled = ask(page, {"op": "link_load", "local": local[mover]}, {"op": "roll"})
                assert rolled["ok"], rolled
                box = next(cell["request"] for row in rolled["view"]["rows"]
                           for cell in [row["cells"][mover]] if cell.get("playable"))
                _, scored = ask(page, {"op": "link_load", "local": rolled["local"]}, box)
                assert scored["ok"], scored
                local[mover] = scored["local"]
            _, sent = ask(page, {"op": "link_load", "local": local[mover]}, {"op": "link_send"})
            assert sent["ok"], sent
            local[mover] = sent["local"]
            sent_links.append(sent["link"])
            other = 1 - mover
            [taken] = ask(pages[other], {"op": "link_open", "token": sent["link"], "local": local[other]})
            assert taken["outcome"] == "updated", taken
            local[other] = taken["local"]
            if taken["status"]["over"]:
                break
            mover = other
        # the end: the same sheets, every die verified, on both devices
        ends = {d: ask(pages[d], {"op": "link_load", "local": local[d]})[0] for d in (0, 1)}
        for d, end in ends.items():
            assert end["status"]["over"] and end["status"]["verification"] == {"state": "verified", "pending": []}
        totals = [[side["total"] for side in end["view"]["sides"]] for end in ends.values()]
        assert totals[0] == totals[1]
        assert max(len(link) for link in sent_links) + len("#play=") <= 2000
        # the same link twice, an older link, a damaged link
        last, receiver = sent_links[-1], pages[other]
        [again] = ask(receiver, {"op": "link_open", "token": last, "local": local[other]})
        assert again["outcome"] == "unchanged"
        [stale] = ask(receiver, {"op": "link_open", "token": sent_links[-3], "local": local[other]})
        assert stale["outcome"] == "older"
        damaged = last[:50] + ("A" if last[50] != "A" else "B") + last[51:]
        [refused] = ask(receiver, {"op": "link_open", "token": damaged, "local": local[other]})
        assert refused["ok"] is False and refused["code"] in ("link.check", "link.altered")
    finally:
        for context in contexts:
            context.close()
    problems = [g.report() for g in guards if g.problems]
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(problems), pytrace=False)
