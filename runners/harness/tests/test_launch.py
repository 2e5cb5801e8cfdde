"""launch.py's pure parts: the one place the environment allow-list is applied, how an ended process is
reported, and how the server answers a command line it was sent (a bad one is answered, never waited on).
Starting and killing real processes is test/executors/local/launch.test.ts's job; nothing here starts one."""

import json
import os
import signal
import tempfile
import unittest
from unittest import mock

from benchgrid_harness import WIRE, launch

PARENT = {
    "PATH": "/usr/bin",
    "HOME": "/home/u",
    "LANG": "C.UTF-8",
    "TMPDIR": "/tmp/parent",
    # what a user's shell may hold and a cell process must not see
    "LD_PRELOAD": "/evil.so",
    "PYTHONPATH": "/somewhere/else",
    "PYTHONSTARTUP": "/evil.py",
    "PYTHONHASHSEED": "random",
    "OMP_NUM_THREADS": "64",
    "BENCHGRID_LAUNCHER_CONTAINED": "1",
}


def command(**fields):
    """A complete command (the line format of docs/protocol.md), with `fields` changed."""
    base = {
        "id": 7,
        "start": "cold",
        "python": "/nonexistent/python",
        "argv": ["-c", "pass"],
        "cwd": "/",
        "pythonpath": ["/h"],
        "threads": 1,
        "tmpdir": None,
        "stdout": "/nonexistent/out.log",
        "stderr": "/nonexistent/err.log",
        "cpus": None,
        "timeout_s": 5,
    }
    base.update(fields)
    return base


class CellEnvTest(unittest.TestCase):
    def test_only_allow_listed_variables_come_from_the_parent(self):
        env = launch.cell_env(PARENT, ["/h", "/r"], 2)
        for key in ("LD_PRELOAD", "PYTHONSTARTUP", "BENCHGRID_LAUNCHER_CONTAINED"):
            self.assertNotIn(key, env)
        for key in ("PATH", "HOME", "LANG", "TMPDIR"):
            self.assertEqual(env[key], PARENT[key])
        allowed = set(WIRE["env"]["pass"]) | set(WIRE["env"]["set"]) | set(WIRE["env"]["threads"]) | {"PYTHONPATH"}
        self.assertLessEqual(set(env), allowed)

    def test_the_fixed_variables_and_the_threads_override_the_parent(self):
        env = launch.cell_env(PARENT, ["/h", "/r"], 3)
        for key, value in WIRE["env"]["set"].items():
            self.assertEqual(env[key], value)
        self.assertEqual(env["PYTHONHASHSEED"], "0")
        for key in WIRE["env"]["threads"]:
            self.assertEqual(env[key], "3")
        self.assertEqual(env["PYTHONPATH"], os.pathsep.join(["/h", "/r"]))

    def test_a_private_tmpdir_replaces_the_parents(self):
        self.assertEqual(launch.cell_env(PARENT, [], 1, "/tmp/cell")["TMPDIR"], "/tmp/cell")
        self.assertEqual(launch.cell_env({}, [], 1)["PYTHONPATH"], "")
        self.assertNotIn("TMPDIR", launch.cell_env({}, [], 1))


class ExitInfoTest(unittest.TestCase):
    def test_a_signal_is_named_and_an_unknown_one_numbered(self):
        info = launch.exit_info(command(), signum=signal.SIGKILL)
        self.assertEqual((info["exitCode"], info["signal"], info["timedOut"]), (None, "SIGKILL", False))
        self.assertEqual(launch.signal_name(250), "SIG250")

    def test_a_timed_out_process_has_no_spawn_error(self):
        info = launch.exit_info(command(timeout_s=9), timed_out=True, spawn_error="gone")
        self.assertEqual((info["timedOut"], info["timeoutS"], info["spawnError"]), (True, 9, None))

    def test_the_tails_are_the_last_bytes_of_the_logs_and_empty_when_unreadable(self):
        with tempfile.TemporaryDirectory(prefix="benchgrid-harness-test-") as folder:
            out = os.path.join(folder, "out.log")
            with open(out, "wb") as f:
                f.write(b"x" * 10_000 + b"END\xff")
            info = launch.exit_info(command(stdout=out), code=0)
        self.assertEqual(len(info["stdoutTail"]), launch.TAIL_BYTES)
        self.assertTrue(info["stdoutTail"].endswith("END\ufffd"))
        self.assertEqual(info["stderrTail"], "")
        self.assertEqual(info["exitCode"], 0)

    def test_a_wait_status_becomes_an_exit_code_or_a_signal(self):
        self.assertEqual(launch._status(3 << 8), (3, None))
        self.assertEqual(launch._status(signal.SIGTERM), (None, signal.SIGTERM))


class CommandTest(unittest.TestCase):
    """_handle: one line from the orchestrator, answered through `send` (captured here)."""

    def setUp(self):
        self.sent = []
        patcher = mock.patch.object(launch, "send", self.sent.append)
        patcher.start()
        self.addCleanup(patcher.stop)

    def handle(self, line, children=None, fork=None):
        with mock.patch("sys.stderr") as stderr:
            launch._handle(line, {} if children is None else children, fork)
        return "".join(call.args[0] for call in stderr.write.call_args_list)

    def test_a_line_that_is_not_json_is_reported_and_not_answered(self):
        said = self.handle('{"id": 1, "start":')
        self.assertIn("not JSON", said)
        self.assertEqual(self.sent, [])

    def test_a_command_without_an_id_is_reported_and_not_answered(self):
        for line in ("[1, 2]", '"text"', json.dumps({k: v for k, v in command().items() if k != "id"})):
            self.assertIn("bad command", self.handle(line), line)
        self.assertEqual(self.sent, [])

    def test_a_command_missing_fields_is_answered_with_an_error_naming_them(self):
        bad = command()
        del bad["timeout_s"], bad["stderr"]
        self.handle(json.dumps(bad))
        self.assertEqual(len(self.sent), 1)
        self.assertEqual(self.sent[0]["id"], 7)
        self.assertIn("stderr, timeout_s", self.sent[0]["error"])

    def test_a_fork_asked_of_the_cold_launcher_is_refused(self):
        self.handle(json.dumps(command(start="fork")))
        self.assertEqual(self.sent[0]["id"], 7)
        self.assertIn("does not fork", self.sent[0]["error"])

    def test_an_interpreter_that_does_not_exist_ends_as_a_spawn_error(self):
        folder = tempfile.TemporaryDirectory(prefix="benchgrid-harness-test-")
        self.addCleanup(folder.cleanup)
        logs = {"stdout": os.path.join(folder.name, "out.log"), "stderr": os.path.join(folder.name, "err.log")}
        children = {}
        self.handle(json.dumps(command(**logs)), children)
        self.assertEqual(children, {})
        [answer] = self.sent
        self.assertEqual(answer["id"], 7)
        self.assertIn("/nonexistent/python", answer["exit"]["spawnError"])
        self.assertIsNone(answer["exit"]["exitCode"])
        # the driver's synchronous run() gives the same answer
        self.assertEqual(launch.run(command(**logs)), answer["exit"])

    def test_a_kill_reaches_only_the_group_of_its_id(self):
        children = {101: launch._Child(command(id=1)), 102: launch._Child(command(id=2))}
        with mock.patch.object(launch, "kill_group") as kill:
            self.handle(json.dumps({"id": 2, "kill": True}), children)
            self.handle(json.dumps({"id": 99, "kill": True}), children)
        kill.assert_called_once_with(102)
        self.assertEqual(self.sent, [])


class ExpireTest(unittest.TestCase):
    def test_a_child_past_its_deadline_is_killed_once_and_the_wait_is_until_the_next_deadline(self):
        late, soon = launch._Child(command(id=1)), launch._Child(command(id=2))
        late.deadline = launch.time.monotonic() - 1
        soon.deadline = launch.time.monotonic() + 0.25
        children = {201: late, 202: soon}
        with mock.patch.object(launch, "kill_group") as kill:
            wait = launch._expire(children)
            launch._expire(children)
        kill.assert_called_once_with(201)
        self.assertTrue(late.timed_out)
        self.assertFalse(soon.timed_out)
        self.assertLessEqual(wait, 0.25)
        self.assertGreaterEqual(wait, 0.0)

    def test_with_nothing_running_the_loop_wakes_every_second(self):
        self.assertEqual(launch._expire({}), 1.0)


if __name__ == "__main__":
    unittest.main()
