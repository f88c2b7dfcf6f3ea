"""What a run's environment keeps: everything but the variables named as secrets, unless
the user lets one through by name; Python's keyring always fails inside."""

from __future__ import annotations

from assistant.runtime.secrets import KEYRING_BACKEND, run_environment


def test_secret_variables_leave_and_the_rest_stays() -> None:
    env = {"PATH": "/usr/bin", "HOME": "/home/me", "OPENAI_API_KEY": "sk-1",
           "ASSISTANT_API_KEY": "k", "GITHUB_TOKEN": "ghp", "CLIENT_SECRET": "s",
           "PGPASSWORD": "p", "AWS_SECRET_ACCESS_KEY": "a", "TOKENIZERS_PARALLELISM": "false",
           "KEYBOARD": "us"}
    kept = run_environment(env)
    assert kept == {"PATH": "/usr/bin", "HOME": "/home/me", "TOKENIZERS_PARALLELISM": "false",
                    "KEYBOARD": "us", KEYRING_BACKEND[0]: KEYRING_BACKEND[1]}


def test_a_variable_the_user_allows_is_let_through_by_its_exact_name() -> None:
    env = {"GITHUB_TOKEN": "ghp", "GITLAB_TOKEN": "glp", "PYTHON_KEYRING_BACKEND": "mine"}
    kept = run_environment(env, allow=("GITHUB_TOKEN",))
    assert kept == {"GITHUB_TOKEN": "ghp", "PYTHON_KEYRING_BACKEND": KEYRING_BACKEND[1]}
