"""The HTML this package writes: one escaping function for every value that goes into it."""

import html

# Where the element's script is not running (a viewer that strips scripts, an output whose
# script cell was cleared), the element is unknown to the browser and shows its children; once
# defined, its shadow root has no slot and they are not drawn.
FALLBACK = (
    "The attention playground shows here when its script runs (in Jupyter, or in an exported "
    "HTML page). If it stays like this, the output holding the script is gone: run "
    "attention_playground.script() in a cell."
)


def escape(text):
    """Text for an HTML attribute value (quoted with " or ') or for character data: nothing in
    the result can close the quote, open a tag or start a character reference, and a carriage
    return, which a parser would turn into a line feed, is written as a reference to itself."""
    return html.escape(text, quote=True).replace("\r", "&#13;")


def element(tag, attributes, fallback=FALLBACK):
    """`<tag name="value" ...>fallback</tag>`, every value escaped; a value of None is written
    as a bare attribute (a flag such as `compact`)."""
    written = "".join(
        f" {name}" if value is None else f' {name}="{escape(value)}"' for name, value in attributes
    )
    inner = f'<p style="font:0.85em sans-serif;color:#5f6368">{escape(fallback)}</p>' if fallback else ""
    return f"<{tag}{written}>{inner}</{tag}>"


def module_script(source):
    """An inline module script. The build already wrote every `</script` of the bundle as
    `<\\/script` and refused a bundle holding `<!--`, so the text cannot end the element early."""
    return f'<script type="module">{source}</script>'


def page(title, body):
    """A whole HTML document that works opened from disk."""
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n"
        "<style>body{margin:0;padding:1rem;font-family:system-ui,sans-serif}</style>\n"
        f"</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )
