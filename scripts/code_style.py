"""Which way of proposing code works best for the embedded model: fenced blocks, or
`execute` tool calls (in the <tool_call> form Qwen was trained on), free or held to a
valid call by a llama.cpp grammar.

Each request runs in a fresh folder with its files; the model's first proposal is run
there and the files or the output are checked. Prompts go through our ChatML with the
assistant's own system message; greedy decoding, as the assistant asks for.

    .venv/bin/python scripts/code_style.py [--model NAME|PATH] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.config import load_settings
from assistant.llm import fenced, tools
from assistant.loop.prompt import system_message
from assistant.servers import chatml, embedded

Check = Callable[[Path, str], bool]

# (request, files to create, check on the folder and the run's output)
TASKS: list[tuple[str, dict[str, str], Check]] = [
    ("How many .txt files are in this folder?",
     {"a.txt": "1", "b.txt": "2", "c.txt": "3", "d.md": "4"},
     lambda d, out: "3" in out),
    ("Make a folder called old and move the .log files here into it.",
     {"a.log": "x", "b.log": "y", "keep.txt": "z"},
     lambda d, out: (d / "old" / "a.log").is_file() and (d / "old" / "b.log").is_file()
     and (d / "keep.txt").is_file()),
    ("What is the total of the amount column in sales.csv?",
     {"sales.csv": "item,amount\npen,10\nbook,20.5\nlamp,30\n"},
     lambda d, out: "60.5" in out),
    ("Rename every .jpeg file here to .jpg.",
     {"x.jpeg": "1", "y.jpeg": "2"},
     lambda d, out: (d / "x.jpg").is_file() and (d / "y.jpg").is_file()
     and not list(d.glob("*.jpeg"))),
    ("Which file in this folder mentions the word invoice?",
     {"a.txt": "hello there", "notes.md": "the invoice is due friday", "b.txt": "bye"},
     lambda d, out: "notes.md" in out),
    ('Create a file hello.json containing {"name": "Ada"}.', {},
     lambda d, out: (d / "hello.json").is_file()
     and json.loads((d / "hello.json").read_text() or "null") == {"name": "Ada"}),
    ("Count the lines in notes.txt.",
     {"notes.txt": "".join(f"line {n}\n" for n in range(7))},
     lambda d, out: "7" in out),
    ("Delete the empty files in this folder.",
     {"e1.txt": "", "e2.log": "", "full.txt": "x"},
     lambda d, out: sorted(p.name for p in d.iterdir()) == ["full.txt"]),
]

TOOLS_SECTION = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
    + json.dumps(tools.EXECUTE_TOOL["function"]) + "\n</tools>\n\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)
# Either words that do not start a call, or one call whose JSON is exactly `execute`'s.
GRAMMAR = r'''
root ::= call | words
words ::= [^<] [^\x00]*
call ::= "<tool_call>\n{\"name\": \"execute\", \"arguments\": " arguments "}\n</tool_call>"
arguments ::= "{\"language\": " lang ", \"code\": " string "}"
lang ::= "\"python\"" | "\"shell\"" | "\"javascript\""
string ::= "\"" ( [^"\\\x00-\x1f] | "\\" ["\\/bfnrt] | "\\u" [0-9a-fA-F]{4} )* "\""
'''


def fenced_calls(text: str) -> list[tuple[str, str]]:
    return fenced.find_blocks(text)


def tool_calls(text: str) -> list[tuple[str, str]]:
    found = []
    for raw in CALL.findall(text):
        try:
            call = json.loads(raw)
            arguments = call["arguments"]
            if isinstance(arguments, str):
                arguments = json.loads(arguments)
            found.append((str(arguments["language"]), str(arguments["code"])))
        except (ValueError, KeyError, TypeError):
            continue
    return found


def run(language: str, code: str, folder: Path) -> str:
    language = language.lower()
    if language in ("python", "py", "python3"):
        command = [sys.executable, "-c", code]
    elif language in ("shell", "bash", "sh", "zsh"):
        command = ["bash", "-c", code]
    elif language in ("javascript", "js", "node"):
        command = ["node", "-e", code]
    else:
        return f"(not run: {language})"
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "(timed out)"
    return done.stdout + done.stderr


def attempt(llm: Any, style: str, task: tuple[str, dict[str, str], Check], folder: Path,
            grammars: dict[str, Any]) -> dict[str, Any]:
    """One request in one style, in a fresh folder: the reply, its first proposal run."""
    request, files, check = task
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_text(content)
    os.chdir(folder)  # the system message names the working directory
    addendum = fenced.INSTRUCTIONS if style == "fenced" else tools.INSTRUCTIONS
    system = system_message("", addendum) + ("" if style == "fenced" else TOOLS_SECTION)
    prompt = chatml.render([{"role": "system", "content": system},
                            {"role": "user", "content": request}])
    began = time.perf_counter()
    out = llm.create_completion(prompt, max_tokens=256, temperature=0.0, stop=chatml.STOP,
                                grammar=grammars.get(style))
    seconds = time.perf_counter() - began
    text = out["choices"][0]["text"]
    calls = fenced_calls(text) if style == "fenced" else tool_calls(text)
    output = run(*calls[0], folder) if calls else ""
    ok = bool(calls) and check(folder, output)
    print(f"{style:14} {'ok ' if ok else 'NO '} {seconds:5.1f}s  {request}", file=sys.stderr)
    return {"request": request, "ok": ok, "proposed": bool(calls), "seconds": round(seconds, 2),
            "tokens": out["usage"]["completion_tokens"], "reply": text}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="embedded_model: a name or a .gguf path")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--styles", default="fenced,tools,tools+grammar,tools-forced,"
                        "tools-nofences", help="comma-separated, of the default list")
    args = parser.parse_args()
    from llama_cpp import Llama

    model = embedded.chosen(load_settings({"embedded_model": args.model}))
    if model.path is None:
        raise SystemExit(f"code_style: {model.name} is not installed: run {model.install}")
    threads = embedded.physical_cores()
    llm = Llama(model_path=str(model.path), n_ctx=model.n_ctx, n_threads=threads,
                n_threads_batch=threads, logits_all=False, verbose=False)
    from llama_cpp import LlamaGrammar

    folder = Path(tempfile.mkdtemp(prefix="code-style-")) / "work"
    grammars = {"tools+grammar": LlamaGrammar.from_string(GRAMMAR, verbose=False),
                "tools-forced": LlamaGrammar.from_string(
                    GRAMMAR.replace("root ::= call | words", "root ::= call"), verbose=False),
                "tools-nofences": LlamaGrammar.from_string(
                    GRAMMAR.replace("root ::= call | words", "root ::= prose call?")
                    + 'prose ::= ( [^`<\\x00] | "`" [^`<\\x00] )*\n', verbose=False)}
    styles = args.styles.split(",")
    # Styles take turns on each task, so a change in the machine's load hits them alike.
    results: dict[str, list[dict[str, Any]]] = {style: [] for style in styles}
    for task in TASKS:
        for style in styles:
            results[style].append(attempt(llm, style, task, folder, grammars))
    shutil.rmtree(folder.parent, ignore_errors=True)
    summary = [{"style": style, "passed": sum(r["ok"] for r in rows),
                "proposed": sum(r["proposed"] for r in rows), "of": len(rows),
                "median_s": statistics.median(r["seconds"] for r in rows), "tasks": rows}
               for style, rows in results.items()]
    for row in summary:
        print(f"{row['style']:14} passed {row['passed']}/{row['of']}, proposed "
              f"{row['proposed']}/{row['of']}, median {row['median_s']:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"model": model.name, "styles": summary}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
