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
import os
import re
import reprlib
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
_trained = {}  # tag -> what the trained model refuses: {"setting", "value", "refuses": [attribute]}


def tables():
    """{tag: {python name: row}} from assets/elements.json."""
    global _tables
    if _tables is None:
        described = json.loads(_read("elements.json"))
        _tables = {}
        for element in described["elements"]:
            if "trained" in element:
                _trained[element["tag"]] = element["trained"]
            names = {}
            for row in element["attributes"]:
                names[row["attribute"].replace("-", "_")] = row
                if row["key"].lower() == row["attribute"].replace("-", "_") and row["key"] not in names:
                    names[row["key"]] = row  # X, W_q, X_source: the spec's own spelling
            _tables[element["tag"]] = names
    return _tables


def version():
    return json.loads(_read("elements.json"))["version"]


# The largest whole number a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER): the
# element reads a whole-number attribute as a number, so one past it would not be the one given.
_SAFE_INTEGER = 2**53 - 1

# How a message quotes a value: a few levels and items of a list, the start of a string, so that
# a refusal of a 50 MB string or of a list nested 100,000 deep is a line, not the value again.
class _Quote(reprlib.Repr):
    def repr_str(self, value, level):
        # Its start, which says what it is ("javascript:...", "window:999..."), then an ellipsis.
        return repr(value) if len(value) <= self.maxstring else repr(value[:self.maxstring]) + "…"

    def repr_int(self, value, level):
        # repr() refuses an int of more than 4300 digits; past about 40 its size says enough.
        return repr(value) if value.bit_length() <= 128 else f"<an int of {value.bit_length()} bits>"


_QUOTE = _Quote()
_QUOTE.maxlevel, _QUOTE.maxlist, _QUOTE.maxtuple, _QUOTE.maxdict = 2, 4, 4, 4
_QUOTE.maxstring = _QUOTE.maxother = 36
_QUOTED = 40


def _shown(value):
    """The value as a message quotes it: its repr, cut to about 40 characters."""
    try:
        text = _QUOTE.repr(value)
    except Exception:  # a __repr__ that fails, or recurses without end
        text = f"<{_kind_of(value)}>"
    return text if len(text) <= _QUOTED else text[:_QUOTED - 1] + "…"


def _kind_of(value):
    name = type(value).__name__
    return name if len(name) <= _QUOTED else name[:_QUOTED - 1] + "…"


def _given(value, given=None):
    """The value quoted, with the type the caller gave (ndarray, float32, not the list or float
    read from it)."""
    return f"{_shown(value)} ({_kind_of(value if given is None else given)})"


def _plain(value):
    """A NumPy scalar or array as the Python value it holds (numbers exactly, an array as lists),
    so every check below sees bool, int, float, str, list; anything else as given."""
    try:
        if hasattr(value, "tolist") and hasattr(value, "shape"):
            return value.tolist()
    except Exception:  # not NumPy's after all: the checks refuse it as it is
        pass
    return value


def _is_bool(value):
    # NumPy's bool_ is not a bool subclass, nor a number, but is no number either.
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool8")


def _is_number(value):
    return isinstance(value, numbers.Real) and not _is_bool(value)


def _is_integer(value):
    return isinstance(value, numbers.Integral) and not _is_bool(value)


def _finite(value):
    """The number as a float, or None where it is no finite number: NaN, infinite, or past a
    float's range (10**400 as an int or a Fraction)."""
    if not _is_number(value):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError, TypeError):
        return None
    return number if math.isfinite(number) else None


def _number_text(value):
    """The shortest text that reads back as the same number in JavaScript."""
    if _is_integer(value):
        return str(int(value))
    return repr(float(value))


def _bound(number):
    # 4294967295, not 4.29497e+09: a bound is read to be typed.
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def _range_words(low, high):
    if low is not None and high is not None:
        return f" from {_bound(low)} to {_bound(high)}"
    if low is not None:
        return f" of at least {_bound(low)}"
    if high is not None:
        return f" of at most {_bound(high)}"
    return ""


def _text(owner, name, value, given=None):
    if not isinstance(value, str):
        raise SettingError(f"{owner} setting {name} must be text (str), not {_given(value, given)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise SettingError(f"{owner} setting {name} holds a lone surrogate: it is not text a page can hold") from None
    if "\0" in value:
        raise SettingError(f"{owner} setting {name} holds a NUL character, which no HTML page can hold")
    return value


# A URL's scheme is what comes before the first ":" when no "/", "?" or "#" comes first.
_SCHEME_END = re.compile(r"[^:/?#]*")
# Before reading a scheme, a browser drops C0 controls and spaces at either end, and tabs and
# newlines anywhere: " jav\tascript:" is javascript:. Dropped here: those, every other control
# and every Unicode space, anywhere; a check that finds a scheme a browser would not only refuses more.
_DROPPED = re.compile(r"[\x00-\x20\x7f\s]+")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")  # ASCII only, as a browser's


def is_web_url(text):
    """True for an http(s) URL or one relative to the page (a path, "?query", "#fragment", or
    "//host/path", which takes the page's own scheme); False for any other scheme (javascript:,
    data:, vbscript:, file:, ...), in any case, however spaced out with controls or tabs."""
    head = _SCHEME_END.match(text).group()
    if not text.startswith(":", len(head)):
        return True  # no scheme: relative to the page
    head = _DROPPED.sub("", head)
    if not head.isprintable():
        return False  # an invisible character (U+200B, U+FEFF) that could hide a scheme from this check
    if not _SCHEME.fullmatch(head):
        return True  # "é:x", "./a:b": a path a browser reads as relative
    return head.lower() in ("http", "https")


def file_to_write(owner, name, value):
    """A path (str, bytes, os.PathLike) or a file descriptor (an int) to write to; raises
    SettingError. A bool is no descriptor, though Python would take True as 1 (stdout)."""
    value = _plain(value)
    if _is_integer(value):
        if not 0 <= value < 2**31:
            raise SettingError(f"{owner} setting {name} is a file descriptor, which is a whole number of at least 0, "
                               f"not {_shown(value)}")
        return int(value)
    try:
        path = os.fspath(value)
    except Exception:
        path = None
    if not isinstance(path, (str, bytes)):
        raise SettingError(f"{owner} setting {name} must be a path (str, bytes or os.PathLike) or an open file "
                           f"descriptor (int), not {_given(value)}")
    try:
        named = os.fsencode(path)  # a str as the file system gets it: "\ud800" has no bytes
    except UnicodeError:
        named = b""
    if not named or b"\0" in named:
        raise SettingError(f"{owner} setting {name} must name a file: {_shown(path)} is empty, holds a NUL "
                           "character or has no bytes in the file system's encoding")
    return path


def _numbers(owner, name, value, depth):
    """A matrix (depth 2) or a vector (depth 1) of finite numbers, as lists. Only lists and
    tuples are read (a NumPy array is one by then): an iterator could be endless, a range huge."""
    shape = "a rectangular matrix of finite numbers (a list of equal-length lists, or a 2-D NumPy array)" \
        if depth == 2 else "a vector of finite numbers (a list, or a 1-D NumPy array)"

    def fail(why):
        raise SettingError(f"{owner} setting {name} must be {shape}: {why}")

    def row_of(items, where):  # where: "X[2]"
        items = _plain(items)  # a list of 1-D arrays
        if not isinstance(items, (list, tuple)):
            fail(f"{where} is {_given(items)}, not a list of numbers")
        out = []
        for j, v in enumerate(items):
            v = _plain(v)
            number = _finite(v)
            if number is None:
                fail(f"{where}[{j}] is {_given(v)}, not a finite number")
            out.append(int(v) if _is_integer(v) else number)
        if not out:
            fail(f"{where} is empty")
        return out

    if depth == 1:
        return row_of(value, name)
    if not isinstance(value, (list, tuple)):
        fail(f"got {_given(value)}")
    rows = [row_of(r, f"{name}[{i}]") for i, r in enumerate(value)]
    if not rows:
        fail("it has no rows")
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            fail(f"{name}[{i}] has {len(r)} number{'s' if len(r) != 1 else ''} and {name}[0] has {len(rows[0])}")
    return rows


def table(owner, name, tag):
    """{python name: row} of the element `tag`; raises SettingError for a tag that is none."""
    if not isinstance(tag, str) or tag not in tables():
        raise SettingError(f"{owner} setting {name} must be one of {', '.join(map(repr, tables()))}, not {_given(tag)}")
    return tables()[tag]


def attribute_value(owner, name, row, value):
    """The attribute text for one setting, or None for a flag that is on; raises SettingError.
    Every value is checked here, by the kind, choices and range of its row in the element's
    table: whatever the caller gave (a NumPy scalar of any dtype, an int of 400 digits, a list
    nested 100,000 deep, 50 MB of text), a refusal is a SettingError naming the setting, with
    the value quoted cut short."""
    kind = row["kind"]
    given, value = value, _plain(value)
    if kind in ("text", "string"):
        text = _text(owner, name, value, given)
        # share-url and script-url become a link, an <iframe>'s src and a <script>'s src:
        # a javascript: or data: URL there would run what the page's author never wrote.
        if row["attribute"].endswith("-url") and not is_web_url(text):
            raise SettingError(
                f"{owner} setting {name} must be an http(s) URL or one relative to the page, not {_shown(text)}")
        return text
    if kind in ("bool", "flag"):
        if not _is_bool(value):
            raise SettingError(f"{owner} setting {name} must be True or False, not {_given(value, given)}")
        if kind == "flag":
            return None if value else False
        return "true" if value else "false"
    if kind in ("int", "count"):
        low = max(row.get("min", 0 if kind == "count" else -_SAFE_INTEGER), -_SAFE_INTEGER)
        high = min(row.get("max", _SAFE_INTEGER), _SAFE_INTEGER)
        if not _is_integer(value) or not low <= value <= high:
            raise SettingError(
                f"{owner} setting {name} must be a whole number{_range_words(low, high)}, not {_given(value, given)}")
        return str(int(value))
    if kind == "number":
        low, high = row.get("min"), row.get("max")
        number = _finite(value)
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            raise SettingError(
                f"{owner} setting {name} must be a finite number{_range_words(low, high)}, not {_given(value, given)}")
        return _number_text(value)
    if kind == "select":
        choices = row["options"]
        if not isinstance(value, str) or value not in choices:
            raise SettingError(
                f"{owner} setting {name} must be one of {', '.join(map(repr, choices))}, not {_given(value, given)}")
        return value
    if kind == "controls":
        # A list or a tuple of names, in the order given (a set has none).
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            raise SettingError(
                f"{owner} setting {name} must be 'all', 'none', or a list of setting names, not {_given(value, given)}")
        items = [i.strip() for i in items]
        if items in (["all"], ["none"]):
            return items[0]
        for item in items:
            if item not in row["options"]:
                raise SettingError(
                    f"{owner} setting {name} lists {_shown(item)}, which has no control; "
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
    # Only ASCII digits, a few of them: str.isdigit() also takes "²", which int() does not, and
    # int() refuses more than 4300 digits; anything else stays a mask the check below refuses.
    mask = settings.get("mask")
    if isinstance(mask, str) and ":" in mask and "window" in table:
        kind, _, width = mask.partition(":")
        if kind in table["mask"].get("options", ()) and re.fullmatch("[0-9]{1,15}", width) and "window" not in settings:
            settings["mask"], settings["window"] = kind, int(width)
    out, seen = [], {}
    for name, value in settings.items():
        row = table.get(name)
        if row is None:
            # No setting's name is long: a long one is compared with none (difflib's cost grows with it).
            near = difflib.get_close_matches(name, list(table), n=1) if len(name) <= 100 else []
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise SettingError(f"{owner} has no setting {_shown(name)}{hint}; its settings are: {', '.join(names(table))}")
        if row["attribute"] in seen:
            raise SettingError(f"{owner} setting {name} is given twice (also as {seen[row['attribute']]})")
        seen[row["attribute"]] = name
        if value is None:
            continue
        text = attribute_value(owner, name, row, value)
        if text is not False:
            out.append((row["attribute"], text))
    _refuse_with_trained(tag, owner, table, settings)
    return out


def _refuse_with_trained(tag, owner, table, settings):
    """The trained model's sizes and weights are learned: a setting that would shape or give
    random weights beside model="tiny-lm" is refused here, naming it, as the command line and
    the core refuse it (the element would only say so on the page)."""
    trained = _trained.get(tag)
    if trained is None:
        return
    model = next((v for n, v in settings.items() if table[n]["attribute"] == trained["setting"]), None)
    if model != trained["value"]:
        return
    for name, value in settings.items():
        if value is not None and table[name]["attribute"] in trained["refuses"]:
            raise SettingError(f"{owner} setting {name} does not apply to the trained model "
                               f"({trained['setting']}={trained['value']!r}): its sizes and weights are learned, not set")
