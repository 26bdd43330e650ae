"""The Rules dialog: the game's rules, the house rules in effect in the order of the
sheet's boxes they change (generala/catalog.py sheet_order), and each key once."""
import sys
from pathlib import Path

import pytest

from gamepage import GamePage, board_menu, gp, shared  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from generala import catalog  # noqa: E402


@pytest.mark.cross_engine
def test_house_rules_in_sheet_order_and_each_key_once(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=3)
    board_menu(p, "rules")
    p.wait_for_selector("#rules[open]")
    try:
        shown = p.eval_on_selector_all("#rules-body .rules-options li", "els => els.map(e => e.dataset.option)")
        assert shown == catalog.sheet_order("argentine")
        keys = p.eval_on_selector_all("#rules-body .keys-help li", "els => els.map(e => e.textContent.split(' — ')[0])")
        assert len(keys) >= 8 and len(keys) == len(set(keys))
    finally:
        p.keyboard.press("Escape")
        p.wait_for_selector("#rules[open]", state="detached")
