"""Synthetic worlds for benchmarks: N services of about 22 tools each, linked by nominal types.
Deterministic text generation only; it checks and compiles like any hand-written world."""

from __future__ import annotations


def synthetic_world(n_services: int, name: str = "synth") -> str:
    out = [f"// A synthetic world of {n_services} services, generated for benchmarks.", ""]
    out.append('pool names = ["alpha", "beta", "gamma", "delta", "epsilon"]')
    out.append("")
    for i in range(n_services):
        j = (i * 7 + 3) % n_services  # the service whose rows this one refers to
        out += [
            f"type Item{i}Id = id",
            f"type Label{i} = text",
            f"enum Stage{i} {{ draft, active, done }}",
            "",
            f'service svc{i} "Synthetic service {i}" {{',
            f"  record Item{i} {{",
            f"    key id: Item{i}Id",
            f"    label: Label{i}",
            f"    owner: Item{j}Id",
            "    amount: money",
            f"    stage: Stage{i} = draft",
            "    due: date",
            "  }",
            f"  state items: table[Item{i}]",
            "  state today: date = 2025-06-01",
            "  seed items: 3..6 rows {",
            "    label: pick(names)",
            f"    owner: ref svc{j}.items" if j != i else "    owner: \"none\"",
            "    amount: 10..5000",
            "    stage: weighted(draft: 2, active: 2, done: 1)",
            "    due: 2025-01-01..2025-12-31",
            "  }",
        ]
        tools = [
            (f"get{i}(id: Item{i}Id) -> Item{i}", ["require id in items else not_found \"no item {id}\"", "return items[id]"]),
            (f"list_by_owner{i}(owner: Item{j}Id) -> list[Item{i}]", ["return filter(x in items where x.owner == owner)"]),
            (f"list_by_label{i}(label: Label{i}) -> list[Item{i}]", ["return filter(x in items where x.label == label by x.due)"]),
            (f"create{i}(label: Label{i}, owner: Item{j}Id, amount: money, due: date) -> Item{i}Id",
             ["require amount > 0 else invalid \"amount must be positive\"", "let x = insert items { label: label, owner: owner, amount: amount, due: due }", "return x.id"]),
            (f"relabel{i}(id: Item{i}Id, label: Label{i}) -> Item{i}",
             ["require id in items else not_found \"no item {id}\"", "update items[id] { label: label }", "return items[id]"]),
            (f"activate{i}(id: Item{i}Id) -> Item{i}",
             ["require id in items else not_found \"no item {id}\"", "require items[id].stage == draft else conflict \"item {id} is not a draft\"", "update items[id] { stage: active }", "return items[id]"]),
            (f"finish{i}(id: Item{i}Id) -> Item{i}",
             ["require id in items else not_found \"no item {id}\"", "require items[id].stage == active else conflict \"item {id} is not active\"", "update items[id] { stage: done }", "return items[id]"]),
            (f"remove{i}(id: Item{i}Id)", ["require id in items else not_found \"no item {id}\"", "require items[id].stage != active else forbidden \"item {id} is active\"", "delete items[id]"]),
            (f"count_stage{i}(stage: Stage{i}) -> int", ["return count(x in items where x.stage == stage)"]),
            (f"total{i}() -> money", ["return sum(x.amount for x in items)"]),
            (f"total_for_owner{i}(owner: Item{j}Id) -> money", ["return sum(x.amount for x in items where x.owner == owner)"]),
            (f"largest{i}() -> money", ["require exists(x in items) else not_found \"no items\"", "return max(x.amount for x in items)"]),
            (f"smallest{i}() -> money", ["require exists(x in items) else not_found \"no items\"", "return min(x.amount for x in items)"]),
            (f"latest{i}() -> Item{i}", ["require exists(x in items) else not_found \"no items\"", "return latest(x in items by x.due)"]),
            (f"earliest{i}() -> Item{i}", ["require exists(x in items) else not_found \"no items\"", "return earliest(x in items by x.due)"]),
            (f"postpone{i}(id: Item{i}Id, n: int) -> Item{i}",
             ["require id in items else not_found \"no item {id}\"", "require n > 0 and n < 365 else invalid \"postpone by 1 to 364 days\"", "update items[id] { due: items[id].due + days(n) }", "return items[id]"]),
            (f"overdue{i}() -> list[Item{i}]", ["return filter(x in items where x.due < today and x.stage != done)"]),
            (f"owner_of{i}(id: Item{i}Id) -> Item{j}Id", ["require id in items else not_found \"no item {id}\"", "return items[id].owner"]),
            (f"label_of{i}(id: Item{i}Id) -> Label{i}", ["require id in items else not_found \"no item {id}\"", "return items[id].label"]),
            (f"search{i}(q: text) -> list[Item{i}]", ["return filter(x in items where lower(x.label) contains lower(q))"]),
            (f"archive_done{i}() -> int", ["let n = count(x in items where x.stage == done)", "delete x in items where x.stage == done", "return n"]),
            (f"advance_day{i}() -> date", ["set today = today + days(1)", "return today"]),
        ]
        for header, body in tools:
            tname = header.split("(")[0]
            out.append("")
            out.append(f"  tool {header}")
            out.append(f'    "Synthetic tool {tname}"')
            out.append(f'    say "{tname.replace("_", " ")}"')
            out.append("  {")
            out += [f"    {line}" for line in body]
            out.append("  }")
        out.append("}")
        out.append("")
    out.append(f'world {name} "A synthetic world of {n_services} services" {{')
    out.append("}")
    return "\n".join(out) + "\n"
