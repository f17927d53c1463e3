"""`worldc lint`: rules the seeds break (W101), tools no task can reach (W102, W103)."""

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
  state items: table[Item]
  state payments: table[Payment]
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


def test_the_bundled_worlds(capsys):
    assert main(["lint", str(ROOT / "worlds" / "toy.world")]) == 0
    assert "no warnings over 20 seeded states" in capsys.readouterr().err
    legal = str(ROOT / "worlds" / "legal_ops.world")
    assert main(["lint", legal, "--format", "json"]) == 0
    codes = sorted(d["code"] for d in json.loads(capsys.readouterr().out))
    assert codes == ["W102", "W102", "W102", "W102", "W103"]  # four counts of nothing a person names; a simulated summary
    assert main(["lint", legal, "--strict", "--seeds", "3"]) == 1
    assert "5 warnings over 3 seeded states" in capsys.readouterr().err
