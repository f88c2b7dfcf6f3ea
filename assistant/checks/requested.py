"""What a request names and asks for, parsed once into a `Request`: the files and folders
it is about, the scripts it asks to run, the columns or keys it wants, whether it asks
for a figure or a change, and its language.

Read from the user's words only, so checks of runs and answers hold the model to the
user's names, not to names the model chose. Names are read by their shape (a file by its
extension, a folder by its slash); what it asks for is read from English words, and the
rules that use those say so (assistant/checks/rules.toml).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Questions whose answer is on this machine, not in any model's training.
ABOUT_THIS_MACHINE = re.compile(
    r"\b(disk|free space|cpus?|cores?|memory|ram|kernel|uptime|battery|process(es)?|"
    r"installed|ip address|hostname|this (computer|machine|folder|directory)|my (computer|"
    r"machine|files|folder|desktop|screen)|folders?|director(y|ies)|files|what time|"
    r"how (many|much|big|large)|largest|biggest|smallest|newest|oldest|count)\b",
    re.IGNORECASE,
)
MAKES = re.compile(r"\b(write|save|create|make|generate|export|convert|produce|put|store|"
                   r"extract|copy|split|merge|combine)\b", re.IGNORECASE)
CHANGES = re.compile(r"\b(change|set|update|replace|edit|modify|rename|move|add(?! up\b)|"
                     r"get rid of|append|insert|remove|delete|drop|fix|sort|dedupe|dedup|clean|"
                     r"bump|increase|decrease|uppercase|lowercase)\b", re.IGNORECASE)
# Files that are copies of each other: "duplicate files", "the extra copies".
DUPLICATES = re.compile(r"\b(duplicates?|duplicated|extra copies|same contents?|identical "
                        r"files)\b", re.IGNORECASE)
# The request is about the working folder: "the .jpeg files here", "*.log".
HERE = re.compile(r"\b(here|this (folder|directory))\b|(?<![\w/])\*?\.\w{1,5} files\b|\*\.\w+",
                  re.IGNORECASE)
# A request to do something to the windows on screen: "click Yes", "tick Photos", "say no";
# with a window shown, "write hello in it", "change Monday to Friday", "send the form",
# "set the volume to 30", "use the newsletter page to unsubscribe me", "skip it". Read only
# when the windows were shown for the request.
ON_SCREEN = re.compile(
    r"\b(click|press|push|tap|choose|select|pick|tick|untick|uncheck|type|fill|close|"
    r"dismiss|answer|accept|decline|cancel|confirm|say (yes|no)|switch|toggle|"
    r"turn (on|off)|submit|sign in|log in|enter|write|save|replace|change|send|add|edit|"
    r"exit|set|open|use|unsubscribe|subscribe|sign up|register|book|order|rename|delete|"
    r"remove|skip|apply|agree|go to|enable|disable|quit|reject|allow|deny|install|postpone|"
    r"remind|snooze|discard|keep|give|put|start|create|make|mark|move|finish|complete)\b|"
    r"\bcheck (the |off )", re.IGNORECASE)
# A question rather than a command: "what does it say?", "is the box ticked".
QUESTION = re.compile(r"\?\s*$|^\s*(?:what|which|who|whose|when|where|why|how|is|are|does|"
                      r"do|did|can you tell|tell me|read)\b", re.IGNORECASE)
# A request for a figure: "how many", "tell me the sum".
FIGURE_ASKED = re.compile(
    r"\bhow (many|much|big|large|long|old)\b|\b(tell|give|show) me (the|how)\b"
    r"[^.?!\n]{0,40}?\b(sum|total|count|number|average|mean|size|many|much)\b|"
    r"\bwhat(?:'s| is| was| are) the "
    r"(sum|total|count|number|average|mean|size)\b", re.IGNORECASE)
# A file named in a request: a relative path ending in an extension people use for files.
EXTENSIONS = (
    "txt|md|csv|tsv|json|jsonl|xml|yaml|yml|toml|ini|cfg|conf|log|py|js|mjs|ts|sh|html|css|"
    "pdf|png|jpg|jpeg|gif|svg|zip|tar|gz|tgz|sql|db|sqlite|bak|doc|docx|xls|xlsx|odt|ods"
)
NAMED_FILE = re.compile(
    r"(?<![\w/~.-])((?:[\w-]+/)*[\w.-]*\w\.(?:" + EXTENSIONS + r"))(?![\w/])",
    re.IGNORECASE,
)
# A quoted name with a space in it ("meeting notes.txt"): the quotes are where it starts,
# which the unquoted shape cannot tell ('notes.txt' alone, another file). Single quotes
# only around words, so an apostrophe (Ana's notes.txt) opens nothing.
QUOTED_FILE = re.compile(
    r"""["\u201c`]([^"\u201d`\n]* [^"\u201d`\n]*?\.(?:""" + EXTENSIONS + r"""))["\u201d`]|"""
    r"""(?<!\w)'([^'\n]* [^'\n]*?\.(?:""" + EXTENSIONS + r"""))'(?!\w)""",
    re.IGNORECASE,
)
# Names of products that look like files ("a Node.js project"): never a file to check.
PRODUCTS = {"node.js", "vue.js", "next.js", "nuxt.js", "react.js", "express.js", "three.js",
            "d3.js", "chart.js", "angular.js", "ember.js", "backbone.js", "nest.js"}
# "the data folder", "in lib/", "under src/": a folder of the working folder, by its name.
NAMED_FOLDER = re.compile(
    r"\b(?:the|my|this|that)\s+([\w.-]+)\s+(?:folder|directory|dir)\b|"
    r"(?<![\w./~-])([\w.-]+)/(?![\w.-])",
    re.IGNORECASE,
)
# "with the columns team,average", "keys `name` and `total`", "a column named score".
FIELDS = re.compile(
    r"\b(column|key|field|header)s?\b(?:\s+(?:named|called))?[\s:]+"
    r"((?:[`'\"]?[\w-]+[`'\"]?)(?:\s*(?:,|\band\b|&)\s*[`'\"]?[\w-]+[`'\"]?)*)",
    re.IGNORECASE,
)
# Words that end a list of names: "a column total to orders.csv", "keys name and count for each".
NOT_NAMES = {"a", "an", "the", "of", "in", "to", "for", "from", "with", "by", "as", "per",
             "each", "all", "its", "their", "that", "which", "is", "are", "like", "such",
             "sorted", "then", "into", "on", "at", "or", "and", "so", "where", "holding",
             "column", "columns", "key", "keys", "field", "fields", "value", "values"}


def named_files(request: str) -> list[str]:
    """The relative file paths a request names, in order, each once: quoted names with
    spaces first, then the names whose shape says they are files."""
    quoted = [(first or second).strip() for first, second in QUOTED_FILE.findall(request)]
    rest = QUOTED_FILE.sub(" ", request)
    return [name for name in dict.fromkeys([*quoted, *NAMED_FILE.findall(rest)])
            if name.lower() not in PRODUCTS]


# The program that runs a script of each kind, as a user would run it.
RUNNERS = {".js": "node", ".mjs": "node", ".cjs": "node", ".py": "python3", ".sh": "bash"}


def runner(script: str) -> str:
    """The program that runs `script` ("node" for sum.js); "" for a file no runner takes."""
    return RUNNERS.get("." + script.rsplit(".", 1)[-1].lower(), "")


def scripts_to_run(request: str) -> list[str]:
    """The scripts a request names and asks to be run ("write sum.js ... run it")."""
    if not re.search(r"\b(run|execute)\b", request, re.IGNORECASE):
        return []
    return [name for name in named_files(request) if runner(name)]


def named_folders(request: str) -> list[str]:
    """The folder names a request gives ("the data folder", "lib/"), in order, each once."""
    return list(dict.fromkeys(first or second for first, second in NAMED_FOLDER.findall(request)))


def field_names(request: str) -> tuple[str, list[str]]:
    """The kind ("column", "key", ...) and the names a request asks a written file to have;
    ("", []) when it names none."""
    for match in FIELDS.finditer(request):
        names: list[str] = []
        for word in re.split(r"\s*(?:,|\band\b|&)\s*", match[2]):
            name = word.strip("`'\" ")
            if not name or name.lower() in NOT_NAMES:
                break
            names.append(name)
        if names:
            return match[1].lower(), names
    return "", []


@dataclass(frozen=True)
class Request:
    """A request, parsed once for every check of its turn."""

    text: str
    language: str = ""  # ISO 639-1 when known (a spoken request); "" when not
    files: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()  # named and asked to be run
    field_kind: str = ""  # "column", "key", ... with the names it asks a file to have
    fields: tuple[str, ...] = ()
    figure: str = ""  # the words that ask for a figure ("how many"); "" when none do
    makes: bool = False  # asks for a file to be made
    changes: bool = False  # asks for something to be changed
    dedupes: bool = False  # asks for files that are copies of each other to go
    about_machine: bool = False  # asks what only this machine can tell
    here: bool = False  # is about the working folder ("here", "*.log")
    on_screen: bool = False  # asks for something done to a window (when one is shown)
    to_dialog: bool = False  # a command spoken over a dialog that waits for an answer

    @classmethod
    def parse(cls, text: str, language: str = "") -> Request:
        kind, fields = field_names(text)
        asked = FIGURE_ASKED.search(text)
        return cls(text, language, tuple(named_files(text)), tuple(named_folders(text)),
                   tuple(scripts_to_run(text)), kind, tuple(fields),
                   asked[0] if asked else "", bool(MAKES.search(text)),
                   bool(CHANGES.search(text)),
                   bool(DUPLICATES.search(text)) and bool(CHANGES.search(text)),
                   bool(ABOUT_THIS_MACHINE.search(text)),
                   bool(HERE.search(text)), bool(ON_SCREEN.search(text)))
