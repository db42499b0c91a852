"""The words of a fault, and a bot's answer checked as JSON."""

import json

DETAIL_MAX = 1000  # characters of a fault's detail; the judge bounds lines too


class Unfit(Exception):
    """The bot cannot be run at all; the message is for its author."""


class AnswerError(Exception):
    def __init__(self, fault, detail):
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


def clip(text, limit=DETAIL_MAX):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_repr(value, limit=200):
    try:
        return clip(repr(value), limit)
    except Exception:
        return "<unprintable %s>" % type(value).__name__


def reject_constant(name):
    raise ValueError("%s is not valid JSON" % name)


def parse_output(raw):
    """(None, text) when raw is exactly one JSON value, else a fault."""
    excerpt = safe_repr(raw[:80])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "malformed", "the output is not UTF-8: %s" % excerpt
    text = text.strip()
    if not text:
        return "malformed", "no output"
    try:
        json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        return "malformed", "the output is nested too deeply"
    except ValueError as exc:
        if getattr(exc, "msg", "") == "Extra data":
            return "malformed", "more than one JSON value: %s" % excerpt
        return "malformed", "not JSON (%s): %s" % (getattr(exc, "msg", exc), excerpt)
    # A newline in valid JSON is insignificant whitespace: replacing it keeps
    # the text one line without touching any value.
    return None, text.replace("\r", " ").replace("\n", " ")
