"""Double General's two boxes on the page: what each box shows is the engine's.

A seeded turn of ten dice (the CPython mirror plays the same one):

- before a box is chosen, each open box shows the best five dice for it alone (the view's
  previews);
- once a first box is chosen, each other open box shows what it earns paired with it, in
  the best split of the ten dice between the two (the engine's op pairs), the best pair
  marked; that differs from the box alone when the first box takes dice it needs;
- once the second box is chosen, the split card and the two chosen boxes say the same
  points, the engine's split's (op split), also after dice are moved between the groups
  (op price); Cancel gives the boxes back their own previews.
"""
import pytest
from gamepage import GamePage, Mirror, gp, shared  # noqa: F401
from playwright.sync_api import expect

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

VARIANT, SEED = "double", 8
FIRST = "sixes"
# With seed 8's first roll (found with the CPython engine: 3 1 4 2 3 3 4 6 5 6), Sixes alone
# earns 12; paired with Big General the best split leaves it less, and Full House paired
# with Sixes earns less than alone: both differences are checked below, so a page that
# showed the boxes alone would fail.
SECOND = "big-general"


def box(gp: GamePage, name: str):
    return gp.page.locator(f'#sheet button.box[data-box="{name}"]')


def shown(mirror: Mirror, points: int, name: str) -> str:
    """A box's points as the sheet writes them (the Bulgarian mandatory marks aside)."""
    row = next(r for r in mirror.view["rows"] if r["box"] == name)
    assert not row["mandatory"]
    return str(points)


def card_points(gp: GamePage, group: int) -> str:
    return gp.page.inner_text(f'#split [data-group="{group}"] .group-label')


@pytest.mark.cross_engine
def test_previews_follow_the_first_box_and_the_chosen_boxes_say_the_split(gp: GamePage):
    p = gp.page
    gp.new_game(VARIANT, ("Ana",), seed=SEED)
    m = Mirror(VARIANT, ("Ana",), SEED)
    m.do({"op": "roll"})
    gp.roll()
    assert gp.dice() == m.view["dice"]
    cur = m.view["current"]
    alone = {r["box"]: r["cells"][cur]["preview"] for r in m.view["rows"] if r["cells"][cur].get("playable")}
    for name, points in alone.items():  # nothing chosen: each box alone
        expect(box(gp, name)).to_have_attribute("data-preview", str(points))

    # The first box: every other open box shows its points paired with it.
    pairs = m.do({"op": "pairs", "box": FIRST})["pairs"]
    gp.pick(FIRST)
    expect(box(gp, FIRST)).to_have_attribute("aria-pressed", "true")
    expect(box(gp, FIRST)).to_have_text(f"✓ {alone[FIRST]}")
    assert sorted(pairs["with"]) == sorted(b for b in alone if b != FIRST)
    changed = []
    for name, entry in pairs["with"].items():
        points = entry["points"][1]
        cell = box(gp, name)
        expect(cell).to_have_attribute("data-preview", str(points))
        expect(cell).to_have_text(shown(m, points, name))
        classes = (cell.get_attribute("class") or "").split()
        assert ("zero" in classes) == entry["scratch"][1], name
        assert ("best" in classes) == (name == pairs["best"]), name
        if points != alone[name]:
            changed.append(name)
    assert changed, "the seed's first box should change what another box earns"
    label = box(gp, "full-house").get_attribute("aria-label")
    assert "paired with Sixes" in label and f"then {pairs['with']['full-house']['points'][0]} point" in label
    assert "each box now shows what it earns together with the first" in p.inner_text("#hint")

    # The second box: the card and the two chosen boxes say the engine's split.
    split = m.do({"op": "split", "boxes": [FIRST, SECOND]})["split"]
    assert split["points"] == pairs["with"][SECOND]["points"]  # what the box showed before
    assert split["points"][0] != alone[FIRST], "the seed's pair should take dice Sixes needs"
    gp.pick(SECOND)
    p.wait_for_selector("#split-ok:enabled")
    for group, name in enumerate((FIRST, SECOND)):
        points = split["points"][group]
        assert card_points(gp, group).endswith(f": {points} point" + ("" if points == 1 else "s"))
        expect(box(gp, name)).to_have_text(f"✓ {points}")
        expect(box(gp, name)).to_have_attribute("data-preview", str(points))
        assert ("zero" in (box(gp, name).get_attribute("class") or "").split()) == split["scratch"][group]
    assert gp.split_groups()[0] == split["positions"]

    # A die moved: no points until each group has its five; moved back, priced again.
    die = split["positions"][0]
    gp.move(die)
    expect(box(gp, FIRST)).to_have_text("✓ …")
    expect(box(gp, SECOND)).to_have_text("✓ …")
    assert p.is_disabled("#split-ok")
    gp.move(die)
    p.wait_for_selector("#split-ok:enabled")
    priced = m.do({"op": "price", "boxes": [FIRST, SECOND], "split": split["positions"]})["split"]
    for group, name in enumerate((FIRST, SECOND)):
        expect(box(gp, name)).to_have_text(f"✓ {priced['points'][group]}")
        assert card_points(gp, group).startswith(("Sixes: ", "Big General: ")[group] + str(priced["points"][group]))

    # Cancel: nothing chosen, each box alone again.
    p.click('#split [data-action="split-cancel"]')
    for name, points in alone.items():
        expect(box(gp, name)).to_have_attribute("data-preview", str(points))
        expect(box(gp, name)).to_have_attribute("aria-pressed", "false")


def test_a_box_taken_back_gives_the_others_their_own_previews(gp: GamePage):
    gp.new_game(VARIANT, ("Ana",), seed=SEED)
    m = Mirror(VARIANT, ("Ana",), SEED)
    m.do({"op": "roll"})
    gp.roll()
    cur = m.view["current"]
    alone = {r["box"]: r["cells"][cur]["preview"] for r in m.view["rows"] if r["cells"][cur].get("playable")}
    pairs = m.do({"op": "pairs", "box": FIRST})["pairs"]
    other = "full-house"
    assert pairs["with"][other]["points"][1] != alone[other]
    gp.pick(FIRST)
    expect(box(gp, other)).to_have_attribute("data-preview", str(pairs["with"][other]["points"][1]))
    gp.pick(FIRST)  # taken back
    expect(box(gp, FIRST)).to_have_attribute("aria-pressed", "false")
    for name, points in alone.items():
        expect(box(gp, name)).to_have_attribute("data-preview", str(points))
    assert "Hold dice and roll again, or choose two boxes" in gp.page.inner_text("#hint")
