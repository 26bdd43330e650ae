"""Value tables are reproducible: ``solve`` writes the same bytes at every run, the shipped
tables are exactly what it writes, and it overwrites an existing table only when asked.

The fresh solves here are the quick ones: ``argentine`` and ``puerto-rican`` (with their
standard deviations, as ``--moments auto`` writes them: about 18 and 5 s). ``double``
(about 30 s with its moments) and ``bulgarian`` (about 15 min) are checked only in that
they load and match their variant's model.
"""
import json
from pathlib import Path

import pytest

from generala import variant
from generala.ai import cli_solve
from generala.ai.solver import MAGIC, Table, solitaire_rules, table_name
from generala.catalog import TABLES

QUICK = ["argentine", "puerto-rican"]


def header(data: bytes) -> dict:
    n = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little")
    return json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + n])


@pytest.mark.parametrize("name", QUICK)
def test_a_fresh_solve_writes_the_shipped_table_byte_for_byte(name, tmp_path):
    out = tmp_path / f"{name}.gvt"
    assert cli_solve.main([name, "--out", str(out), "-q"]) == 0
    shipped = TABLES / table_name(variant(name))
    assert out.read_bytes() == shipped.read_bytes()


@pytest.mark.parametrize("path", sorted(TABLES.glob("*.gvt")), ids=lambda p: p.name)
def test_every_shipped_table_holds_no_time_and_loads(path):
    data = path.read_bytes()
    head = header(data)
    assert set(head) == {"variant", "options", "states", "value", "format", "encoding",
                         "sections", "pairs"}
    table = Table.from_bytes(data)
    assert table_name(table.rules) == path.name
    assert table.rules == solitaire_rules(variant(head["variant"]))
    assert len(table.V) == head["states"] and table.value == head["value"]
    assert table.to_bytes() == data  # reading and writing again changes nothing


def test_solve_refuses_to_overwrite_a_table_unless_forced(tmp_path, capsys):
    out = tmp_path / "t.gvt"
    args = ["puerto-rican", "-o", "aces_wild=off", "--out", str(out), "-q", "--moments", "off"]
    assert cli_solve.main(args) == 0
    first = out.read_bytes()
    out.write_bytes(b"old")
    capsys.readouterr()
    assert cli_solve.main(args) == 2
    err = capsys.readouterr().err
    assert f"{out} exists" in err and "--force" in err
    assert out.read_bytes() == b"old"
    assert cli_solve.main([*args, "--force"]) == 0
    assert out.read_bytes() == first


def test_the_shipped_tables_are_refused_as_a_default_target(capsys):
    """Without --out the default target is the shipped table: it exists, so nothing is solved."""
    assert (TABLES / "puerto-rican.gvt").is_file()
    before = (TABLES / "puerto-rican.gvt").read_bytes()
    assert cli_solve.main(["puerto-rican", "-q"]) == 2
    err = capsys.readouterr().err
    assert "puerto-rican.gvt exists" in err and "--force" in err
    assert (TABLES / "puerto-rican.gvt").read_bytes() == before
