"""`worldc lint`: rules the seeds break (W101), tools no task can reach (W102, W103), tables that
keep withdrawn rows without saying so (W104), records and tools left to fallback words (W106-W108)."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.lint import lint

ROOT = Path(__file__).resolve().parent.parent

WORLD = """
type ItemId = id
type PaymentId = id

service shop "A shop" {
  record Item known by name {
    key id: ItemId
    name: text
    price: money
  }
  record Payment {
    key id: PaymentId
    amount: money
  }
  record Hold {
    key id: id
    item: ItemId
    voided: bool = false
  }
  record Reservation {
    key id: id
    item: ItemId
    cancelled: bool = false
  }
  state items: table[Item]
  state payments: table[Payment]
  state holds: table[Hold]
  state reservations: table[Reservation] retracted when cancelled
  seed payments: 2 rows {
    amount: 5..50
  }
  seed items: 4 rows {
    name: pick(["Mug", "Pen", "Cap", "Bag"])
    price: 1..500
  }

  tool find_items(name: text) -> list[Item]
    "Find items by name"
    say "find the items named {name}"
    gives "the items named {name}"
  {
    return filter(i in items where i.name == name)
  }

  tool reprice(id: ItemId, price: money) -> Item
    "Set an item's price"
    say "set the price of {id} to {price}"
  {
    require id in items else not_found "no item {id}"
    update items[id] { price: price }
    return items[id]
  }

  tool refund(payment: PaymentId) -> bool
    "Refund a payment"
    say "refund payment {payment}"
  {
    require payment in payments else not_found "no payment {payment}"
    delete payments[payment]
    return true
  }

  tool bulk(names: list[text]) -> int
    "Count items with any of these names"
    say "count the items named {names}"
  {
    return count(i in items where i.name in names)
  }

  tool hold(item: ItemId) -> id
    "Hold an item for a customer"
    say "hold {item}"
  {
    let h = insert holds { item: item }
    return h.id
  }

  tool void_hold(id: id) -> Hold
    "Void a hold; it stays on file"
    say "void hold {id}"
  {
    update holds[id] { voided: true }
    return holds[id]
  }

  tool reserve(item: ItemId) -> id
    "Reserve an item"
    say "reserve {item}"
  {
    let r = insert reservations { item: item }
    return r.id
  }

  tool cancel_reservation(id: id) -> Reservation
    "Cancel a reservation; it stays on file"
    say "cancel reservation {id}"
  {
    update reservations[id] { cancelled: true }
    return reservations[id]
  }

  simulated tool quote(name: text) -> text
    "Quote a price in words"
    say "quote the price of {name}"
  {
    ensures len(result) > 0
  }
}

world shopfront "A shop" {

  rule cheap "Everything costs under 100" {
    forall(i in shop.items: i.price < 100)
  }
}
"""


def test_each_warning(tmp_path):
    path = tmp_path / "shop.world"
    path.write_text(WORLD, encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    diags = lint(program.model, str(path), seeds=10)
    by_code = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d.message)
    assert len(by_code["W101"]) == 1
    # 4 prices drawn from 1..500: all under 100 on few seeds, if any
    assert "house rule `cheap` does not hold on the seeded state for" in by_code["W101"][0] and "of 10 seeds" in by_code["W101"][0]
    w102 = " | ".join(by_code["W102"])
    assert "`shop.refund`: it needs a `PaymentId` that no reachable tool's result holds" in w102
    assert "`shop.bulk`: it takes a list or record parameter" in w102
    assert "shop.find_items" not in w102 and "shop.reprice" not in w102  # an entry, and a write on what it finds
    assert by_code["W103"] == ["no sampled task can call `shop.quote`: it is simulated: tasks are built from tools the services run"]
    # holds are voided, not deleted, and say nothing; reservations declare their retracted state
    assert by_code["W104"] == ["`shop.void_hold` withdraws rows of `holds`, which no tool deletes, but the table declares no retracted state: an agent that cancels its own mistaken row fails `no_collateral`"]
    w104 = next(d for d in diags if d.code == "W104")
    assert w104.help == "write `state holds: table[Hold] retracted when voided` if such a row counts as never made"


def test_the_bundled_worlds(capsys):
    assert main(["lint", str(ROOT / "worlds" / "toy.world")]) == 0
    assert "no warnings over 20 seeded states" in capsys.readouterr().err
    legal = str(ROOT / "worlds" / "legal_ops.world")
    assert main(["lint", legal, "--format", "json"]) == 0
    codes = sorted(d["code"] for d in json.loads(capsys.readouterr().out))
    assert codes == ["W102", "W102", "W102", "W102", "W103"]  # four counts of nothing a person names; a simulated summary
    assert main(["lint", legal, "--strict", "--seeds", "3"]) == 1
    assert "5 warnings over 3 seeded states" in capsys.readouterr().err


def test_unphrased_records_and_tools(tmp_path):
    """W106-W108: a record without `known by`, a read without `gives`, a tool without `say`:
    what the tasks would say in fallback words (issue 29)."""
    bare = WORLD.replace('    gives "the items named {name}"\n', "").replace('    say "set the price of {id} to {price}"\n', "").replace("record Item known by name {", "record Item {")
    path = tmp_path / "bare.world"
    path.write_text(bare, encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    by_code = {}
    for d in lint(program.model, str(path), seeds=3):
        by_code.setdefault(d.code, []).append(d)
    w106 = {d.message.split("`")[1] for d in by_code["W106"]}
    assert w106 == {"Item", "Payment", "Hold", "Reservation"}, w106
    item = next(d for d in by_code["W106"] if "`Item`" in d.message)
    assert "tasks name its rows by their name, whatever that field means" in item.message and "known by" in item.hint
    assert [d.message for d in by_code["W107"]] == ['read `shop.find_items` has no `gives`: tasks call what it returns "what you find when you ..."']
    assert [d.message for d in by_code["W108"]] == ['tool `shop.reprice` has no `say`: tasks ask for it as "reprice ..."']
    # the annotated world: no record or tool left to fallback words but the bare records
    program = check_paths([tmp_path / "shop.world"]) if (tmp_path / "shop.world").write_text(WORLD, encoding="utf-8") else None
    codes = [d.code for d in lint(program.model, str(tmp_path / "shop.world"), seeds=3)]
    assert "W107" not in codes and "W108" not in codes and codes.count("W106") == 3


def test_w104_leaves_a_table_no_tool_adds_to(tmp_path):
    """W104 is about rows an agent makes by mistake and then withdraws: where no tool adds rows to
    the table (students of record, who withdraw as an outcome), it says nothing; the same table
    with a tool that adds rows warns."""
    world = WORLD.replace("  tool hold(item: ItemId) -> id\n", "  tool hold_count(item: ItemId) -> int\n").replace(
        "    let h = insert holds { item: item }\n    return h.id\n", "    return count(h in holds where h.item == item)\n"
    )
    assert "insert holds" not in world
    path = tmp_path / "w.world"
    path.write_text(world, encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    assert [d for d in lint(program.model, str(path), seeds=2) if d.code == "W104"] == []
