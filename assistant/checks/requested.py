"""What a request names: the files it is about, and the columns or keys it asks for.

Read from the user's words only, so checks of runs and answers hold the model to the
user's names, not to names the model chose.
"""

from __future__ import annotations

import re

# A file named in a request: a relative path ending in an extension people use for files.
EXTENSIONS = (
    "txt|md|csv|tsv|json|jsonl|xml|yaml|yml|toml|ini|cfg|conf|log|py|js|mjs|ts|sh|html|css|"
    "pdf|png|jpg|jpeg|gif|svg|zip|tar|gz|tgz|sql|db|sqlite|bak|doc|docx|xls|xlsx|odt|ods"
)
NAMED_FILE = re.compile(
    r"(?<![\w/~.-])((?:[\w-]+/)*[\w.-]*\w\.(?:" + EXTENSIONS + r"))(?![\w/])",
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
    """The relative file paths a request names, in order, each once."""
    return [name for name in dict.fromkeys(NAMED_FILE.findall(request))
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
