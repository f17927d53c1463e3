"""Large tables are written as changes over shared rows (`Layered`): every read, and the order of
iteration, must be exactly those of a copied dict, and the shared rows must never change. Random
transactions against a dict model; WORLDC_LONG=1 runs many more of them."""

import os
import random

import pytest

from compoworld_dsl.runtime import state as S
from compoworld_dsl.runtime.state import Layered, State, Tx, diff

ROUNDS = 400 if os.environ.get("WORLDC_LONG") == "1" else 40


def view(table) -> tuple:
    """Everything a reader can see of a table, in order."""
    return (list(table), list(table.values()), list(table.items()), len(table))


@pytest.mark.parametrize("seed", range(ROUNDS))
def test_layered_tables_read_as_the_dict_the_same_writes_make(seed, monkeypatch):
    monkeypatch.setattr(S, "LAYERED_FROM", 8)
    rng = random.Random(seed)
    shared = {f"k{i}": {"id": f"k{i}", "n": i} for i in range(rng.randint(8, 40))}
    frozen = dict(shared)
    st = State(tables={"t": shared})
    model = dict(shared)
    snapshots = []
    for _ in range(rng.randint(1, 30)):
        committed = dict(model)
        tx = Tx(st)
        for _ in range(rng.randint(1, 6)):
            op = rng.random()
            keys = list(model)
            if op < 0.35 and keys:  # change a row
                k = rng.choice(keys)
                row = {"id": k, "n": rng.randint(0, 9)}
                tx.put("t", k, row)
                model[k] = row
            elif op < 0.6 and keys:  # remove a row
                k = rng.choice(keys)
                tx.remove("t", k)
                del model[k]
            else:  # a new key, or one removed earlier put back (it goes last, as in a dict)
                k = f"k{rng.randint(0, 60)}"
                row = {"id": k, "n": rng.randint(0, 9)}
                tx.put("t", k, row)
                model[k] = row
            staged = tx.table("t")
            assert view(staged) == view(model)
        if rng.random() < 0.2:  # dropped, never committed: the state must not see it
            model = committed
            assert view(st.tables["t"]) == view(model)
            continue
        before = st.snapshot()
        tx.commit()
        table = st.tables["t"]
        assert view(table) == view(model)
        assert table == model and model == table
        for k in list(model)[:5] + ["k999", "nope"]:
            assert (k in table) == (k in model)
            assert table.get(k) == model.get(k)
        assert diff(before, st) == diff(State(tables={"t": dict(before.tables["t"])}), State(tables={"t": dict(model)}))
        snapshots.append((st.snapshot(), dict(model)))
    assert shared == frozen  # the shared rows never changed
    for snap, seen in snapshots:  # nor did any published table
        assert view(snap.tables["t"]) == view(seen)


def test_a_write_to_a_large_table_costs_what_it_changes():
    rows = {i: {"id": i} for i in range(5 * S.LAYERED_FROM)}
    st = State(tables={"t": rows})
    tx = Tx(st)
    tx.put("t", 3, {"id": 3, "x": 1})
    tx.remove("t", 4)
    tx.put("t", -1, {"id": -1})
    tx.commit()
    table = st.tables["t"]
    assert isinstance(table, Layered) and table.shared is rows
    assert (table.changed, table.gone, table.added) == ({3: {"id": 3, "x": 1}}, {4}, {-1: {"id": -1}})
    assert list(table)[:5] == [0, 1, 2, 3, 5] and list(table)[-1] == -1


def test_changes_that_outgrow_the_shared_rows_become_a_dict():
    rows = {i: {"id": i} for i in range(S.LAYERED_FROM)}
    st = State(tables={"t": rows})
    for i in range(S.LAYERED_FROM // 2 + 2):
        tx = Tx(st)
        tx.put("t", i, {"id": i, "x": 1})
        tx.commit()
    assert type(st.tables["t"]) is dict  # (a flattened copy; later writes layer over it)
    assert [r.get("x") for r in st.tables["t"].values()][: S.LAYERED_FROM // 2] == [1] * (S.LAYERED_FROM // 2)
