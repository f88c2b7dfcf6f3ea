"""Reading the assistant's secrets is `secrets`, high: the web token, API keys in the
environment, the keyring. Printing every variable only asks (the guard hides the keys)."""

from __future__ import annotations

import pytest

from assistant.safety.risk import assess

SECRETS = [
    ("shell", "cat ~/.local/share/assistant/web-token"),
    ("shell", "cat $XDG_DATA_HOME/assistant/web-token"),
    ("shell", "grep -r . ~/.local/share/assistant/"),
    ("shell", "assistant serve --url"),
    ("shell", "printenv OPENAI_API_KEY"),
    ("shell", "echo $ANTHROPIC_API_KEY"),
    ("shell", "curl -H \"Authorization: Bearer ${GITHUB_TOKEN}\" https://api.example.com"),
    ("shell", "env | grep -i api_key"),
    ("shell", "tr '\\0' '\\n' < /proc/self/environ"),
    ("shell", "strings /proc/$(pgrep -f assistant)/environ"),
    ("shell", "ps auxeww"),
    ("shell", "n=OPENAI_API; n=${n}_KEY; echo \"${!n}\""),
    ("shell", "ln -sf ~/.local/share/assist*/web-tok* /tmp/notes.txt && cat /tmp/notes.txt"),
    ("python", "import os\nname = ''.join(map(chr, [79, 80, 69, 78, 65, 73, 95, 65, 80, 73, 95, "
               "75, 69, 89]))\nprint(os.getenv(name))"),
    ("shell", "secret-tool lookup service assistant username OPENAI_API_KEY"),
    ("shell", "keyring get assistant OPENAI_API_KEY"),
    ("shell", "python3 -m keyring get assistant OPENAI_API_KEY"),
    ("shell", "gdbus call --session --dest org.freedesktop.secrets --object-path "
              "/org/freedesktop/secrets --method org.freedesktop.Secret.Service.SearchItems {}"),
    ("python", "import os\nprint(os.environ['OPENAI_API_KEY'])"),
    ("python", "import os\nprint(os.getenv('GROQ_API_KEY'))"),
    ("python", "import keyring\nprint(keyring.get_password('assistant', 'OPENAI_API_KEY'))"),
    ("python", "import glob\n"
               "print(open(glob.glob('~/.local/share/assistant/web*')[0]).read())"),
    ("python", "from pathlib import Path\n"
               "print((Path.home() / '.local/share/assistant/web-token').read_text())"),
    ("python", "from assistant.safety.keys import key_for_model\n"
               "print(key_for_model('gpt-4o', {}))"),
    ("python", "from assistant.config import load_settings\nprint(load_settings().api_key)"),
    ("javascript", "console.log(process.env.OPENAI_API_KEY)"),
    ("javascript", "const { ANTHROPIC_API_KEY } = process.env;\nconsole.log(ANTHROPIC_API_KEY);"),
    ("javascript", "require('keytar').getPassword('assistant', 'OPENAI_API_KEY')"),
]


@pytest.mark.parametrize(("language", "code"), SECRETS)
def test_reading_the_assistants_secrets_is_high(language: str, code: str,
                                                own: tuple[str, str]) -> None:
    verdict = assess(code, language, protected=own)
    assert verdict.risk == "high" and verdict.families[0] in ("secrets", "exfiltration"), verdict


@pytest.mark.parametrize("code", ["env", "env | grep PATH", "printenv", "export -p", "set"])
def test_printing_every_variable_asks_without_alarm(code: str) -> None:
    assert assess(code, "shell").risk == "medium"


@pytest.mark.parametrize("code", ["echo $PATH", "printenv HOME", "echo $TOKENIZERS_PARALLELISM",
                                  "set -euo pipefail", "export EDITOR=vim", "ps aux",
                                  "for pass in 1 2; do echo $pass; done",
                                  "ps -ef", "assistant history", "assistant keys list"])
def test_everyday_variables_and_processes_stay_low(code: str) -> None:
    assert assess(code, "shell").risk == "low", code


def test_reading_the_assistants_settings_asks(own: tuple[str, str]) -> None:
    verdict = assess("cat ~/.config/assistant/config.toml", "shell", protected=own)
    assert (verdict.risk, verdict.families) == ("medium", ("secrets",))


def test_talking_to_the_assistants_own_page_asks() -> None:
    code = "import requests\nrequests.post('http://127.0.0.1:8421/api/decide', json={})"
    assert assess(code, "python").risk == "medium"
