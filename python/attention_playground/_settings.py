"""Python settings -> the element's attributes, checked against the elements' own tables.

assets/elements.json is written by the build (scripts/build-hosts.mjs) from the elements'
code: every attribute an element observes, with its kind, choices, range and help. A setting's
Python name is its attribute with underscores (d-model -> d_model, w-q -> w_q), or the spec key
where that differs only in case (X, W_q).
"""

import difflib
import json
import math
import numbers
from importlib import resources


class SettingError(ValueError):
    """A setting the element would not understand: unknown, of the wrong type, or out of range.
    The message names the setting."""


def _read(name):
    try:
        return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuntimeError(
            f"attention_playground has no assets/{name}: it was installed or used before the "
            "web build. Run `npm run build` at the top of the repository (it writes "
            "python/attention_playground/assets/), then install again."
        ) from None


_tables = None


def tables():
    """{tag: {python name: row}} from assets/elements.json."""
    global _tables
    if _tables is None:
        described = json.loads(_read("elements.json"))
        _tables = {}
        for element in described["elements"]:
            names = {}
            for row in element["attributes"]:
                names[row["attribute"].replace("-", "_")] = row
                if row["key"].lower() == row["attribute"].replace("-", "_") and row["key"] not in names:
                    names[row["key"]] = row  # X, W_q, X_source: the spec's own spelling
            _tables[element["tag"]] = names
    return _tables


def version():
    return json.loads(_read("elements.json"))["version"]


def _kind_of(value):
    return type(value).__name__


def _is_bool(value):
    # NumPy's bool_ is not a bool subclass, nor a number, but is no number either.
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool8")


def _is_number(value):
    return isinstance(value, numbers.Real) and not _is_bool(value)


def _is_integer(value):
    return isinstance(value, numbers.Integral) and not _is_bool(value)


def _number_text(value):
    """The shortest text that reads back as the same number in JavaScript."""
    if _is_integer(value):
        return str(int(value))
    return repr(float(value))


def _range_words(row):
    low, high = row.get("min"), row.get("max")
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}"
    if low is not None:
        return f" of at least {low:g}"
    if high is not None:
        return f" of at most {high:g}"
    return ""


def _text(owner, name, value):
    if not isinstance(value, str):
        raise SettingError(f"{owner} setting {name} must be text (str), not {value!r} ({_kind_of(value)})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SettingError(f"{owner} setting {name} holds a lone surrogate: it is not text a page can hold") from None
    if "\0" in value:
        raise SettingError(f"{owner} setting {name} holds a NUL character, which no HTML page can hold")
    return value


def _numbers(owner, name, value, depth):
    """A matrix (depth 2) or a vector (depth 1) of finite numbers, as lists."""
    shape = "a rectangular matrix of finite numbers (a list of equal-length lists, or a 2-D NumPy array)" \
        if depth == 2 else "a vector of finite numbers (a list, or a 1-D NumPy array)"
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        value = value.tolist()  # a NumPy array: its numbers as Python floats and ints, exactly

    def fail(why):
        raise SettingError(f"{owner} setting {name} must be {shape}: {why}")

    def row_of(items, where):  # where: "X[2]"
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            fail(f"{where} is {items!r}, not a list of numbers")
        out = []
        for j, v in enumerate(items):
            if not _is_number(v):
                fail(f"{where}[{j}] is {v!r} ({_kind_of(v)}), not a number")
            v = int(v) if _is_integer(v) else float(v)
            if isinstance(v, float) and not math.isfinite(v):
                fail(f"{where}[{j}] is {v!r}")
            out.append(v)
        if not out:
            fail(f"{where} is empty")
        return out

    if depth == 1:
        return row_of(value, name)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        fail(f"got {value!r} ({_kind_of(value)})")
    rows = [row_of(r, f"{name}[{i}]") for i, r in enumerate(value)]
    if not rows:
        fail("it has no rows")
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            fail(f"{name}[{i}] has {len(r)} number{'s' if len(r) != 1 else ''} and {name}[0] has {len(rows[0])}")
    return rows


def attribute_value(owner, name, row, value):
    """The attribute text for one setting, or None for a flag that is on; raises SettingError."""
    kind = row["kind"]
    if kind in ("text", "string"):
        return _text(owner, name, value)
    if kind in ("bool", "flag"):
        if not _is_bool(value):
            raise SettingError(f"{owner} setting {name} must be True or False, not {value!r} ({_kind_of(value)})")
        if kind == "flag":
            return None if value else False
        return "true" if value else "false"
    if kind in ("int", "count"):
        if not _is_integer(value):
            raise SettingError(
                f"{owner} setting {name} must be a whole number{_range_words(row)}, not {value!r} ({_kind_of(value)})")
        low, high = row.get("min", 0 if kind == "count" else None), row.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise SettingError(f"{owner} setting {name} must be a whole number{_range_words(row) or ' of at least 0'}, not {value!r}")
        return str(int(value))
    if kind == "number":
        if not _is_number(value) or not math.isfinite(float(value)):
            raise SettingError(
                f"{owner} setting {name} must be a finite number{_range_words(row)}, not {value!r} ({_kind_of(value)})")
        low, high = row.get("min"), row.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise SettingError(f"{owner} setting {name} must be a number{_range_words(row)}, not {value!r}")
        return _number_text(value)
    if kind == "select":
        choices = row["options"]
        if not isinstance(value, str) or value not in choices:
            raise SettingError(
                f"{owner} setting {name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value
    if kind == "controls":
        items = value.split(",") if isinstance(value, str) else value
        if isinstance(items, (bytes,)) or not hasattr(items, "__iter__"):
            raise SettingError(f"{owner} setting {name} must be 'all', 'none', or a list of setting names, not {value!r}")
        items = [i.strip() if isinstance(i, str) else i for i in items]
        if items in (["all"], ["none"]):
            return items[0]
        for item in items:
            if item not in row["options"]:
                raise SettingError(
                    f"{owner} setting {name} lists {item!r}, which has no control; "
                    f"choose from {', '.join(row['options'])} (or 'all', 'none')")
        return ",".join(items)
    if kind in ("matrix", "vector"):
        return json.dumps(_numbers(owner, name, value, 2 if kind == "matrix" else 1),
                          allow_nan=False, separators=(",", ":"))
    raise SettingError(f"{owner} setting {name} is of a kind this package does not know ({kind}): update the package")


def names(table):
    """One Python name per attribute, in the element's order: the spec's spelling for a matrix
    (X, W_q), the attribute's with underscores for the rest."""
    out = {}
    for name, row in table.items():
        if row["attribute"] not in out or name == row["key"]:
            out[row["attribute"]] = name
    return list(out.values())


def attributes(tag, owner, settings):
    """[(attribute, text or None)] for the element `tag`, in the order given; raises SettingError
    naming the first setting the element would not understand. None as a value leaves the
    setting at the element's default."""
    table = tables()[tag]
    settings = dict(settings)
    # mask="window:2" as in a spec: the element takes the mask and the window apart.
    mask = settings.get("mask")
    if isinstance(mask, str) and ":" in mask and "window" in table:
        kind, _, width = mask.partition(":")
        if kind in table["mask"].get("options", ()) and width.isdigit() and "window" not in settings:
            settings["mask"], settings["window"] = kind, int(width)
    out, seen = [], {}
    for name, value in settings.items():
        row = table.get(name)
        if row is None:
            near = difflib.get_close_matches(name, list(table), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise SettingError(f"{owner} has no setting {name!r}{hint}; its settings are: {', '.join(names(table))}")
        if row["attribute"] in seen:
            raise SettingError(f"{owner} setting {name} is given twice (also as {seen[row['attribute']]})")
        seen[row["attribute"]] = name
        if value is None:
            continue
        text = attribute_value(owner, name, row, value)
        if text is not False:
            out.append((row["attribute"], text))
    return out
