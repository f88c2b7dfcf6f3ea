"""The shell runtime: one bash whose cwd and environment persist, and which survives errors."""


def test_cwd_and_exported_env_persist(execute, tmp_path):
    assert execute("bash", f"cd {tmp_path}\nexport GREETING=hello\nlocal_var=1").exit_status == 0
    end = execute("sh", "pwd; echo $GREETING; bash -c 'echo $GREETING from a child'")
    assert end.output == f"{tmp_path}\nhello\nhello from a child\n"


def test_exit_status_of_the_last_command(execute):
    assert execute("shell", "false").exit_status == 1
    assert execute("shell", "(exit 7)").exit_status == 7


def test_syntax_error_does_not_break_the_next_run(execute):
    execute("shell", "kept=yes")
    end = execute("shell", "echo (")
    assert end.exit_status != 0
    assert "syntax error" in end.output
    assert execute("shell", "echo $kept").output == "yes\n"


def test_exit_ends_the_shell_and_the_next_run_restarts_it(execute):
    execute("shell", "export LOST=1")
    end = execute("shell", "echo bye; exit 3")
    assert end.exit_status == 3
    assert end.restarted
    assert end.output.startswith("bye\n")
    assert "state" in end.output
    end = execute("shell", 'echo "[${LOST:-gone}]"')
    assert (end.exit_status, end.output, end.restarted) == (0, "[gone]\n", False)


def test_xtrace_shows_only_the_user_code(execute):
    # stdout and stderr are separate pipes, so only the set of lines is certain.
    end = execute("shell", "set -x\necho traced")
    assert sorted(end.output.splitlines()) == ["++ echo traced", "traced"]
    assert execute("shell", "echo untraced").output == "untraced\n"
