"""The Attention Playground in a notebook: the elements, with their script inlined.

    from attention_playground import Playground
    Playground(sentence="The FBI is chasing the thief", mask="causal", heads=2, d_model=8)

Each class takes the element's attributes as keyword arguments with Python names (d_model=8,
mask="causal", preset="seed004"; matrices as lists or NumPy arrays: X=..., W_q=...) and raises
SettingError (a ValueError) naming a setting the element would not understand. Displayed in a
notebook, the first element of a kernel's session carries the whole script (the elements and the
WebAssembly core, about 1 MB); later ones are plain tags that the same page already knows, so a
notebook holds one copy, and it still works saved, exported with `jupyter nbconvert --to html`
and opened from disk, with no server and nothing fetched from anywhere.
"""

import errno

from . import _markup, _settings
from ._settings import SettingError

__all__ = ["Playground", "Compare", "Trainer", "SettingError", "script", "settings"]
__version__ = "0.1.0"


def _bundle():
    return _settings._read("elements.js")


class _Session:
    """Which output of this kernel holds the script. A notebook page keeps the elements it has
    defined, so one copy is enough, as long as the output that holds it stays in the notebook:
    when that cell is run again (its output replaced) or deleted, the next display carries the
    script again. Where the front end names its cells (JupyterLab, Notebook 7 and VS Code send
    cellId and deletedCells with each execution) that is followed; elsewhere (nbconvert), the
    first display of the session holds it."""

    def __init__(self):
        self.holder = None  # (cell id or None, execution count) of the output with the script

    @staticmethod
    def _where():
        try:
            from IPython import get_ipython
        except ImportError:
            return None
        shell = get_ipython()
        if shell is None:
            return None
        metadata = {}
        kernel = getattr(shell, "kernel", None)
        try:
            metadata = (kernel.get_parent() if kernel is not None else {}).get("metadata", {}) or {}
        except Exception:  # an older kernel without get_parent(): no cell ids
            metadata = {}
        return metadata.get("cellId"), getattr(shell, "execution_count", None), metadata.get("deletedCells") or []

    def needs_script(self):
        where = self._where()
        if where is None:
            return True  # not in a kernel: whoever asked for HTML gets all of it
        cell, count, deleted = where
        if self.holder is None:
            self.holder = (cell, count)
            return True
        held_cell, held_count = self.holder
        if held_cell is not None and (held_cell in deleted or (held_cell == cell and held_count != count)):
            self.holder = (cell, count)
            return True
        return False

    def forget(self):
        self.holder = None


_session = _Session()


class _Element:
    tag = ""

    def __init__(self, **settings):
        self._attributes = _settings.attributes(self.tag, type(self).__name__, settings)
        self._settings = settings

    @property
    def attributes(self):
        """The element's attributes as written: {name: text} (a flag that is on has text "")."""
        return {name: "" if text is None else text for name, text in self._attributes}

    def tag_html(self):
        """The element alone (no script): for a page that already loads dist/attention-playground.js."""
        return _markup.element(self.tag, self._attributes)

    def html(self):
        """The element with its script inlined: a fragment that works in any page."""
        return _markup.module_script(_bundle()) + "\n" + self.tag_html()

    def save(self, path, title="Attention Playground"):
        """Writes a standalone HTML page (script and core inlined) that works opened from disk,
        to a path or an open file descriptor (left open); returns `path`."""
        owner = f"{type(self).__name__}.save()"
        file = _settings.file_to_write(owner, "path", path)
        title = _settings._text(owner, "title", _settings._plain(title), title)
        text = _markup.page(title, self.tag_html() + "\n" + _markup.module_script(_bundle()))
        # A descriptor stays the caller's: written through, not closed.
        try:
            f = open(file, "w", encoding="utf-8", closefd=not isinstance(file, int))
        except OSError as e:
            if e.errno != errno.ENAMETOOLONG:
                raise  # the file system's answer (no such folder, no permission) as it gave it
            # Its message would hold the whole name again.
            raise SettingError(f"{owner} setting path is a name longer than the file system takes: "
                               f"{_settings._shown(path)}") from None
        with f:
            f.write(text)
        return path

    def _repr_html_(self):
        return self.html() if _session.needs_script() else self.tag_html()

    def __repr__(self):
        given = ", ".join(f"{k}={v!r}" for k, v in self._settings.items())
        return f"{type(self).__name__}({given})"


class Playground(_Element):
    """<attention-playground>: a sentence's attention, step by step, every number on screen."""
    tag = "attention-playground"


class Compare(_Element):
    """<attention-compare>: one sentence under two settings (compare="scaling", "mask", ...)."""
    tag = "attention-compare"


class Trainer(_Element):
    """<attention-trainer>: a tiny model learning a task (task="reverse", seed=7, ...)."""
    tag = "attention-trainer"


class _Script:
    def _repr_html_(self):
        _session.forget()
        _session.needs_script()
        return _markup.module_script(_bundle())

    def __repr__(self):
        return "<attention_playground script>"


def script():
    """Displays the elements' script alone, so that the elements of this page show again after
    the output that held it was cleared. Later displays in this session stay plain tags."""
    return _Script()


def settings(element="attention-playground"):
    """The settings an element takes: {python name: {"attribute", "kind", "options", "min", "max",
    "default", "help"}} (from the element's own table, as built)."""
    return {name: dict(row) for name, row in _settings.table("settings()", "element", element).items()}
