"""The import graph of loaded modules: which files a module sees, directly or through others.
Shared by the loader (failed imports) and the checker (visible names); it imports neither."""


def import_closure(modules: dict, start) -> list:
    """The paths `start` imports or uses, directly or through other modules, itself first, in
    the order a depth-first walk finds them. `modules` maps a path to an object with `imports`,
    a list of (target path, node); a path missing from it (a file that was never read) is a leaf."""
    seen, order, stack = {start}, [start], [start]
    while stack:
        m = modules.get(stack.pop())
        if m is None:
            continue
        for target, _ in m.imports:
            if target not in seen:
                seen.add(target)
                order.append(target)
                stack.append(target)
    return order
