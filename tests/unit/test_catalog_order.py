"""The Rules dialog lists the house rules in effect in sheet order: the catalog gives
each variant's options ordered by the first box of the sheet each one changes (an
option that changes no box, such as a stake, after those), found from the rules
themselves (generala/catalog.py), not written by hand."""
from generala import catalog
from generala.rules.variants import SPECS, variant


def test_each_option_names_the_boxes_it_changes():
    assert catalog.option_boxes("argentine", _opt("argentine", "served_bonus")) == ["straight", "full-house", "four-kind"]
    assert catalog.option_boxes("argentine", _opt("argentine", "generala_points")) == ["generala"]
    assert catalog.option_boxes("argentine", _opt("argentine", "double_generala")) == ["double-generala"]
    # no box of its own: the box that forfeits the automatic win it switches on
    assert catalog.option_boxes("argentine", _opt("argentine", "served_generala_wins")) == ["generala"]
    assert catalog.option_boxes("puerto-rican", _opt("puerto-rican", "stake_per_point")) == []


def test_options_are_in_the_order_of_the_sheet():
    for name, spec in SPECS.items():
        order = catalog.sheet_order(name)
        assert sorted(order) == sorted(o.name for o in spec.options)
        sheet = list(variant(name, **{o.name: o.values[-1] for o in spec.options if not o.number and o.is_bool}).categories)
        firsts = [catalog.option_boxes(name, _opt(name, n)) for n in order]
        placed = [min(sheet.index(b) for b in boxes if b in sheet) for boxes in firsts if any(b in sheet for b in boxes)]
        assert placed == sorted(placed), (name, order)
        # options that change no box come last
        empty = [i for i, boxes in enumerate(firsts) if not boxes]
        assert empty == list(range(len(order) - len(empty), len(order)))
    assert catalog.sheet_order("argentine")[0] == "served_bonus"  # straight comes before generala
    assert catalog.sheet_order("puerto-rican")[-1] == "stake_per_point"
    assert catalog.catalog()["variants"]["argentine"]["sheet_order"] == catalog.sheet_order("argentine")


def _opt(name, option):
    return next(o for o in SPECS[name].options if o.name == option)
