"""Our fixed ChatML template: every message in place, in the tokens Qwen was trained on."""

from __future__ import annotations

from assistant.servers.chatml import render


def test_every_message_is_kept_in_place() -> None:
    prompt = render([
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "List files."},
        {"role": "assistant", "content": "```shell\nls\n```"},
        {"role": "user", "content": "Output:\na.txt"},
        {"role": "system", "content": "Screen text follows."},
    ])
    assert prompt == (
        "<|im_start|>system\nBe brief.<|im_end|>\n"
        "<|im_start|>user\nList files.<|im_end|>\n"
        "<|im_start|>assistant\n```shell\nls\n```<|im_end|>\n"
        "<|im_start|>user\nOutput:\na.txt<|im_end|>\n"
        "<|im_start|>system\nScreen text follows.<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_list_contents_keep_their_text_and_other_roles_read_as_user() -> None:
    prompt = render([
        {"role": "user", "content": [{"type": "text", "text": "What is on screen?"},
                                     {"type": "image_url", "image_url": {"url": "data:..."}}]},
        {"role": "tool", "content": "exit 0"},
        {"role": "assistant", "content": None},
    ])
    assert prompt == (
        "<|im_start|>user\nWhat is on screen?<|im_end|>\n"
        "<|im_start|>user\nexit 0<|im_end|>\n"
        "<|im_start|>assistant\n<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_a_turn_extends_the_previous_prompt() -> None:
    """What keeps the server's KV cache useful: turn 2's prompt starts with turn 1's
    prompt and its reply, token for token."""
    first = [{"role": "system", "content": "S"}, {"role": "user", "content": "one"}]
    reply = {"role": "assistant", "content": "done"}
    second = render([*first, reply, {"role": "user", "content": "two"}])
    assert second.startswith(render(first) + "done<|im_end|>\n")
