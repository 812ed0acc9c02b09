"""The notebook package without a notebook: run by jupyter.test.mjs with PYTHONPATH=python."""

import fractions
import html.parser
import itertools
import json
import os
import tempfile
import unittest
from unittest import mock

import numpy as np

import attention_playground as ap
from attention_playground import _settings

HOSTILE = [
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)",
    "&amp; &lt; &#x27; &quot;",
    "</attention-playground><img src=x onerror=alert(1)>",
    "<!-- --> <![CDATA[ ]]> `${x}` \\ \u2028 \ufeff é 😀",
    "\n\t\r\n\r",
]


class Tags(html.parser.HTMLParser):
    """The start tags of a fragment, as a browser's tokenizer sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags_of(fragment):
    parser = Tags()
    parser.feed(fragment)
    parser.close()
    return [(t, a) for t, a in parser.tags if t != "p"]  # the fallback text's paragraph


class Settings(unittest.TestCase):
    def test_every_attribute_has_a_python_name(self):
        for element in json.loads(_settings._read("elements.json"))["elements"]:
            table = _settings.tables()[element["tag"]]
            for row in element["attributes"]:
                self.assertIn(row["attribute"].replace("-", "_"), table)

    def test_settings_become_attributes(self):
        p = ap.Playground(d_model=8, mask="causal", preset="seed004", heads=2, compact=True,
                          residual=False, temperature=0.5, controls=["seed", "sentence"], theme="dark")
        self.assertEqual(p.attributes, {"d-model": "8", "mask": "causal", "preset": "seed004", "heads": "2",
                                        "compact": "", "residual": "false", "temperature": "0.5",
                                        "controls": "seed,sentence", "theme": "dark"})
        self.assertEqual(ap.Playground(compact=False, d_k=None).attributes, {})
        self.assertEqual(ap.Playground(mask="window:2").attributes, {"mask": "window", "window": "2"})
        self.assertEqual(ap.Trainer(task="reverse", learning_rate=0.01).attributes, {"task": "reverse", "learning-rate": "0.01"})
        self.assertEqual(ap.Compare(compare="mask").attributes, {"compare": "mask"})

    def test_a_core_setting_the_page_adds_nothing_to_is_a_python_setting(self):
        # qk_norm is a row of the core's table alone: the element's attribute, and so this name.
        self.assertEqual(ap.Playground(qk_norm=True).attributes, {"qk-norm": "true"})
        self.assertEqual(ap.Playground(qk_norm=False).attributes, {"qk-norm": "false"})
        with self.assertRaises(ap.SettingError) as e:
            ap.Playground(qk_norm="yes")
        self.assertIn("qk_norm", str(e.exception))

    def test_the_trained_model(self):
        # model is a row of the core's table: the attribute, and so the notebook's setting.
        p = ap.Playground(model="tiny-lm", sentence="the cat sat. the cat sat.")
        self.assertEqual(p.attributes, {"model": "tiny-lm", "sentence": "the cat sat. the cat sat."})
        self.assertIn('model="tiny-lm"', p._repr_html_())
        with self.assertRaises(ap.SettingError) as e:
            ap.Playground(model="gpt-2")
        self.assertIn("model", str(e.exception))
        # Its sizes and weights are learned: what would shape or give random weights is refused
        # where it is given, naming it, as the command line refuses it (in either order, any spelling).
        for given in ({"seed": 3}, {"heads": 2}, {"mask": "causal"}, {"X": [[1.0]]}, {"w_q": [[1.0]]}, {"d_model": 8}):
            for settings in ({"model": "tiny-lm", **given}, {**given, "model": "tiny-lm"}):
                with self.subTest(settings=settings), self.assertRaises(ap.SettingError) as e:
                    ap.Playground(**settings)
                name = next(iter(given))
                self.assertTrue(str(e.exception).startswith(f"Playground setting {name} does not apply to the trained model"), str(e.exception))
        # What the page shows is not the model's spec: the view, the theme, the controls are taken,
        # and None leaves a setting at its default.
        p = ap.Playground(model="tiny-lm", sentence="ab ab", view="weights", theme="dark", controls="none", seed=None)
        self.assertEqual(p.attributes, {"model": "tiny-lm", "sentence": "ab ab", "view": "weights", "theme": "dark", "controls": "none"})
        self.assertEqual(ap.Playground(model="random", seed=3).attributes, {"model": "random", "seed": "3"})
        # The layer, head and token a teacher picked, as the element's attributes (whole numbers).
        p = ap.Playground(model="tiny-lm", sentence="ab ab", layer=2, head=2, focus_token=3)
        self.assertEqual(p.attributes, {"model": "tiny-lm", "sentence": "ab ab", "layer": "2", "head": "2", "focus-token": "3"})
        for bad in ({"layer": "two"}, {"head": -1}, {"layer": 1.5}):
            with self.subTest(bad=bad), self.assertRaises(ap.SettingError) as e:
                ap.Playground(model="tiny-lm", **bad)
            self.assertIn(next(iter(bad)), str(e.exception))

    def test_matrices_as_lists_or_arrays(self):
        x = np.array([[0.1, -0.3], [1e-7, 2.0]])
        self.assertEqual(ap.Playground(X=x).attributes["x"], "[[0.1,-0.3],[1e-07,2.0]]")
        self.assertEqual(json.loads(ap.Playground(W_q=x).attributes["w-q"]), x.tolist())
        self.assertEqual(ap.Playground(w_q=[[1, 2], [3, 4]]).attributes["w-q"], "[[1,2],[3,4]]")
        self.assertEqual(ap.Playground(decoder_state=np.array([5, 1, 20])).attributes["decoder-state"], "[5,1,20]")
        x_back = json.loads(ap.Playground(X=np.random.RandomState(0).randn(3, 4)).attributes["x"])
        self.assertEqual(x_back, np.random.RandomState(0).randn(3, 4).tolist())  # exactly, bit for bit

    def test_bad_settings_name_themselves(self):
        cases = {
            "dmodel": dict(dmodel=8),
            "heads": dict(heads="2"),
            "seed": dict(seed=-1),
            "d_model": dict(d_model=8.0),
            "temperature": dict(temperature=float("inf")),
            "mask": dict(mask="diagonal"),
            "compact": dict(compact="yes"),
            "residual": dict(residual=1),
            "X": dict(X=[[1, 2], [3]]),
            "W_q": dict(W_q=[[1, "a"]]),
            "W_k": dict(W_k=np.array([[np.nan]])),
            "W_v": dict(W_v=[]),
            "W_o": dict(W_o="[[1]]"),
            "decoder_state": dict(decoder_state=[[1, 2]]),
            "controls": dict(controls=["seed", "nonsense"]),
            "preset": dict(preset="seed999"),
            "sentence": dict(sentence=42),
            "theme": dict(theme="blue"),
        }
        for name, settings in cases.items():
            with self.subTest(name=name):
                with self.assertRaises(ValueError) as caught:
                    ap.Playground(**settings)
                self.assertIsInstance(caught.exception, ap.SettingError)
                self.assertIn(name if name != "dmodel" else "'dmodel'", str(caught.exception))
        with self.assertRaisesRegex(ap.SettingError, "did you mean 'd_model'"):
            ap.Playground(dmodel=8)
        with self.assertRaisesRegex(ap.SettingError, "given twice"):
            ap.Playground(X=[[1]], x=[[2]])
        with self.assertRaisesRegex(ap.SettingError, "Trainer has no setting 'mask'"):
            ap.Trainer(mask="causal")
        with self.assertRaisesRegex(ap.SettingError, "sentence holds a NUL"):
            ap.Playground(sentence="a \0 b")
        with self.assertRaisesRegex(ap.SettingError, "lone surrogate"):
            ap.Playground(sentence="a \ud800 b")


class Escaping(unittest.TestCase):
    def test_hostile_values_stay_values(self):
        for text in HOSTILE:
            with self.subTest(text=text):
                fragment = ap.Playground(sentence=text, view=text, share_url=text).tag_html()
                tags = tags_of(fragment)
                self.assertEqual([t for t, _ in tags], ["attention-playground"])
                self.assertEqual(tags[0][1]["sentence"], text)
                self.assertEqual(tags[0][1]["view"], text)
                self.assertNotIn("<script", fragment.split(">", 1)[0])

    def test_one_escaping_function(self):
        from attention_playground import _markup
        self.assertEqual(_markup.escape("<a href=\"x\">'&'</a>\r\n"), "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;&#13;\n")
        page = _markup.page('</title><script>alert(1)</script>', "")
        self.assertIn("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>", page)

    def test_the_script_cannot_end_early(self):
        bundle = _settings._read("elements.js")
        self.assertNotIn("</script", bundle.lower())
        self.assertNotIn("<!--", bundle)
        self.assertEqual(ap.Playground().html().lower().count("</script>"), 1)


class Session(unittest.TestCase):
    """Which display carries the script, with the front end's cell ids faked."""

    def setUp(self):
        ap._session.forget()

    def shown(self, element, cell=None, count=1, deleted=()):
        where = (cell, count, list(deleted))
        with mock.patch.object(ap._Session, "_where", staticmethod(lambda: where)):
            return "<script" in element._repr_html_()

    def test_outside_a_kernel_every_display_is_whole(self):
        with mock.patch.object(ap._Session, "_where", staticmethod(lambda: None)):
            self.assertIn("<script", ap.Playground()._repr_html_())
            self.assertIn("<script", ap.Playground()._repr_html_())

    def test_one_copy_per_notebook(self):
        p = ap.Playground(seed=1)
        self.assertTrue(self.shown(p, "a", 1))
        self.assertFalse(self.shown(p, "a", 1))  # a second display in the same run of the cell
        self.assertFalse(self.shown(p, "b", 2))
        self.assertFalse(self.shown(p, None, 3))

    def test_the_script_moves_when_its_cell_is_run_again_or_deleted(self):
        p = ap.Playground()
        self.assertTrue(self.shown(p, "a", 1))
        self.assertFalse(self.shown(p, "b", 2))
        self.assertTrue(self.shown(p, "a", 3))   # cell a again: its old output is replaced
        self.assertFalse(self.shown(p, "b", 4))
        self.assertTrue(self.shown(p, "c", 5, deleted=["a"]))
        self.assertFalse(self.shown(p, "b", 6))

    def test_script_puts_it_back(self):
        self.assertTrue(self.shown(ap.Playground(), "a", 1))
        where = ("d", 7, [])
        with mock.patch.object(ap._Session, "_where", staticmethod(lambda: where)):
            self.assertIn("<script", ap.script()._repr_html_())
        self.assertFalse(self.shown(ap.Playground(), "e", 8))

    def test_save_writes_a_whole_page(self):
        with tempfile.TemporaryDirectory() as d:
            path = ap.Playground(sentence="<saved>").save(os.path.join(d, "p.html"), title="A & B")
            with open(path, encoding="utf-8") as f:
                text = f.read()
        self.assertTrue(text.startswith("<!doctype html>"))
        self.assertIn("<title>A &amp; B</title>", text)
        self.assertEqual(text.count('<script type="module">'), 1)
        self.assertIn('sentence="&lt;saved&gt;"', text)


class BadRepr:
    """A value whose repr fails, as a hostile object's may."""

    def __repr__(self):
        raise RuntimeError("no repr")


def nested(depth):
    value = [1.0]
    for _ in range(depth):
        value = [value]
    return value


class HostileValues(unittest.TestCase):
    """Whatever a setting is given, a refusal is a SettingError naming it, in a short message."""

    def refused(self, name, make=ap.Playground, **settings):
        with self.assertRaises(ap.SettingError) as caught:
            make(**settings)
        message = str(caught.exception)
        self.assertIn(name, message)
        self.assertLess(len(message), 600)  # values are quoted cut, never whole
        return message

    def test_out_of_range_numbers(self):
        self.refused("temperature", temperature=10**400)
        self.refused("temperature", temperature=-10**400)
        self.refused("temperature", temperature=fractions.Fraction(10**400, 3))
        self.refused("temperature", temperature=np.float32("nan"))
        self.refused("temperature", temperature=np.finfo(np.longdouble).max)  # past a float's range
        self.refused("temperature", temperature=np.complex128(1))
        self.refused("temperature", temperature=np.True_)
        self.refused("temperature", temperature=np.array([0.5, 1.0]))
        self.refused("focus_token", focus_token=10**400)
        self.refused("focus_token", focus_token=2**53)  # past what a JavaScript number holds exactly
        self.refused("focus_token", focus_token=True)
        self.refused("focus_token", focus_token=np.float64(1.0))
        self.refused("seed", seed=10**5000)  # too long for str(): the message must not need it
        self.refused("seed", seed=np.uint64(2**64 - 1))
        self.refused("heads", heads=np.bool_(True))
        self.refused("X", X=[[10**400]])
        self.refused("X", X=[[1.0, -10**309]])
        self.refused("decoder_state", decoder_state=[10**400])
        self.refused("decoder_state", decoder_state=np.array([1 + 2j]))
        self.refused("X", X=np.array([[np.datetime64("2020")]]))
        self.refused("X", X=np.array([[True, False]]))

    def test_numpy_scalars_and_arrays_that_fit_are_taken(self):
        p = ap.Playground(heads=np.int64(2), seed=np.uint32(7), temperature=np.float32(0.5), compact=np.bool_(True),
                          theme=np.str_("dark"), focus_token=np.int8(3), controls=np.array(["seed", "sentence"]),
                          X=np.array([[1, 2]], dtype=np.int16), decoder_state=np.array([0.5], dtype=np.float16))
        self.assertEqual(p.attributes, {"heads": "2", "seed": "7", "temperature": "0.5", "compact": "", "theme": "dark",
                                        "focus-token": "3", "controls": "seed,sentence", "x": "[[1,2]]",
                                        "decoder-state": "[0.5]"})
        self.assertEqual(ap.Playground(temperature=np.array(0.25)).attributes, {"temperature": "0.25"})
        self.assertEqual(ap.Playground(X=[[2**60]]).attributes, {"x": "[[1152921504606846976]]"})

    def test_controls_of_the_wrong_shape(self):
        self.refused("controls", controls=np.array([["seed", "sentence"]]))
        self.refused("controls", controls=np.array([["all"]]))
        self.refused("controls", controls=np.array([1, 2]))
        self.refused("controls", controls=[["seed"]])
        self.refused("controls", controls={"seed", "sentence"})  # a set has no order
        self.refused("controls", controls=b"seed")
        self.refused("controls", controls=3)
        self.refused("controls", controls=["seed", "x" * 50_000_000])

    def test_deep_long_and_endless_values(self):
        self.refused("X", X=nested(100_000))
        self.refused("X", X=[nested(100_000)])
        self.refused("controls", controls=nested(100_000))
        self.refused("sentence", sentence=nested(100_000))
        self.refused("X", X=["x" * 50_000_000])
        self.refused("X", X=[itertools.count()])  # never ends: refused as no list, not read
        self.refused("X", X=itertools.repeat([1.0]))
        self.refused("decoder_state", decoder_state=range(10**18))
        looped = []
        looped.append(looped)
        self.refused("X", X=looped)
        self.refused("preset", preset="p" * 50_000_000)
        self.refused("theme", theme=["dark"] * 10_000_000)
        message = self.refused("'yyyyyyyy", **{"y" * 50_000_000: 1})
        self.assertIn("…", message)
        self.refused("view", view=BadRepr())
        self.refused("X", X=[[BadRepr()]])

    def test_a_mask_with_its_window(self):
        self.refused("mask", mask="window:" + "9" * 5000)
        self.refused("mask", mask="window:\u00b2")  # a digit to str.isdigit, not to int()
        self.assertIn("setting window ", self.refused("window", window=10**400))
        self.assertEqual(ap.Playground(mask="causal_window:3").attributes, {"mask": "causal_window", "window": "3"})

    def test_save_checks_its_arguments(self):
        p = ap.Playground()
        self.refused("title", make=p.save, path=os.devnull, title=5)
        self.refused("title", make=p.save, path=os.devnull, title=None)
        self.refused("title", make=p.save, path=os.devnull, title="a \0 b")
        self.refused("path", make=p.save, path=None)
        self.refused("path", make=p.save, path=True)  # would be file descriptor 1
        self.refused("path", make=p.save, path=-1)
        self.refused("path", make=p.save, path="a\0b.html")
        self.refused("path", make=p.save, path=["p.html"])
        self.refused("path", make=p.save, path="\ud800.html")  # no bytes in the file system's encoding
        with tempfile.TemporaryDirectory() as d:
            self.refused("path", make=p.save, path=os.path.join(d, "x" * 50_000_000))
            with self.assertRaises(FileNotFoundError):  # the file system's own answer
                p.save(os.path.join(d, "no such folder", "p.html"))

    def test_settings_of_an_element_that_is_none(self):
        self.assertIn("temperature", ap.settings())
        self.assertIn("learning_rate", ap.settings("attention-trainer"))
        self.refused("element", make=ap.settings, element="attention-nothing")
        self.refused("element", make=ap.settings, element=["attention-trainer"])

    def test_save_to_a_file_descriptor_leaves_it_open(self):
        with tempfile.TemporaryDirectory() as d:
            fd = os.open(os.path.join(d, "p.html"), os.O_WRONLY | os.O_CREAT)
            try:
                self.assertEqual(ap.Playground(sentence="to fd").save(fd, title="fd"), fd)
                os.write(fd, b"<!-- the caller's own -->\n")  # still open: raises OSError if closed
            finally:
                os.close(fd)
            with open(os.path.join(d, "p.html"), encoding="utf-8") as f:
                text = f.read()
        self.assertTrue(text.startswith("<!doctype html>"))
        self.assertIn('sentence="to fd"', text)
        self.assertTrue(text.endswith("</html>\n<!-- the caller's own -->\n"))


URLS_TAKEN = [
    "https://x/y", "http://example.org/p?q=1#h", "HTTPS://X/", "HtTp://x", "  https://x/  ", "\x01https://x",
    "ht\ttps://x/",  # a browser removes the tab: https
    "/p/", "./a.js", "../up/a.js", "a.js", "?q", "#h", "//host/p", "\\\\host\\p", "", " ",
    "a.js?next=javascript:alert(1)", "p/javascript:alert(1)", "#javascript:alert(1)", "./javascript:alert(1)",
    "\u00e9javascript:x",  # no scheme starts with a letter outside ASCII: a relative path
]
URLS_REFUSED = [
    "javascript:alert(1)", "JavaScript:alert(1)", "JAVASCRIPT:alert(1)", " jav\tascript:alert(1)",
    "\njavascript:alert(1)", "java\nscript:alert(1)", "java\rscript:alert(1)", "\x00javascript:alert(1)",
    "\x01\x02 \x1f javascript:alert(1)", "javascript\t:alert(1)", "\ufeffjavascript:alert(1)", "\u200bjavascript:alert(1)",
    "\u00a0javascript:alert(1)", "\u2028javascript:alert(1)", "java\u200bscript:alert(1)",
    "data:text/html,<script>alert(1)</script>", "DATA:,x", "vbscript:msgbox(1)", "VBScript:msgbox(1)",
    "file:///etc/passwd", "FILE://c:/x", "ftp://x/", "blob:https://x/1", "mailto:a@b", "ws://x", "c:/x", "C:\\x",
    "x-y+z.w:1", "https+x://y", "httpss://x", "localhost:8080/p",
]


class Urls(unittest.TestCase):
    """share_url and script_url: an http(s) address or one relative to the page, read as a browser reads it."""

    def test_the_url_function(self):
        for text in URLS_TAKEN:
            with self.subTest(text=text):
                self.assertTrue(_settings.is_web_url(text))
        for text in URLS_REFUSED:
            with self.subTest(text=text):
                self.assertFalse(_settings.is_web_url(text))

    def test_url_settings(self):
        for name in ("share_url", "script_url"):
            for text in URLS_TAKEN:
                with self.subTest(name=name, text=text):
                    self.assertEqual(ap.Playground(**{name: text}).attributes[name.replace("_", "-")], text)
            for text in URLS_REFUSED:
                with self.subTest(name=name, text=text):
                    with self.assertRaisesRegex(ap.SettingError, f"setting {name} (must be an http|holds a NUL)"):
                        ap.Playground(**{name: text})
            with self.assertRaisesRegex(ap.SettingError, name):
                ap.Playground(**{name: "javascript:" + "x" * 50_000_000})
            with self.assertRaisesRegex(ap.SettingError, name):
                ap.Playground(**{name: 5})


if __name__ == "__main__":
    unittest.main()
