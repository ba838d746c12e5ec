"""Run against an installed boardplay wheel, outside the source tree (``make distcheck``): the
package imports from site-packages, its compiled kernels load, the command line answers,
Gymnasium finds boardplay's ids with no import of boardplay (the wheel's .pth hook), the
three research frameworks' own checkers pass on every game, and ``boardplay serve`` answers
with its page and the front end's bundle (built by ``make bundle`` before the wheel)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path

import numpy as np

import boardplay


def main() -> None:
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    where = Path(boardplay.__file__).resolve()
    assert site in where.parents, f"boardplay imported from {where}, not from {site}"
    try:
        import Cython  # noqa: F401
    except ImportError:
        pass
    else:
        raise AssertionError("Cython is installed: the wheel must not need it")

    import gymnasium
    import pyspiel
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from boardplay.adapters import gymnasium as bg
    from boardplay.adapters import openspiel
    from boardplay.adapters import pettingzoo as bp
    from boardplay.adapters.vector import BoardplayVectorEnv

    out = subprocess.run(
        [sys.executable, "-m", "boardplay.cli.main", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    print(out.stdout.strip())
    # The wheel's start-up hook: a program that imports only Gymnasium makes every env by its
    # plain id, and boardplay is not loaded before Gymnasium is.
    plain = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "assert not [m for m in sys.modules if m.startswith('boardplay')]\n"
            "import gymnasium\n"
            f"for name in {boardplay.available()!r}:\n"
            "    gymnasium.make(f'boardplay/{name}-v0').reset(seed=0)\n"
            "print('gymnasium.make by plain id in a fresh process')\n",
        ],
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0, plain.stderr
    print(plain.stdout.strip())
    for name in boardplay.available():
        game = boardplay.load(name)
        kernel = game.new_initial_state().kernel
        assert kernel is not None, f"{name}: the compiled kernel did not load"
        pyspiel.random_sim_test(openspiel.load(name), num_sims=2, serialize=True, verbose=False)
        api_test(bp.env(name), num_cycles=40)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(bg.env(name, opponent="random"))
            made = gymnasium.make(f"boardplay/{name}-v0")
            made.reset(seed=0)
        envs = BoardplayVectorEnv(name, 8)
        _, info = envs.reset(seed=1)
        for _ in range(50):
            actions = np.array([row.nonzero()[0][0] for row in info["action_mask"]])
            _, _, _, _, info = envs.step(actions)
        print(
            f"{name}: kernel, OpenSpiel random_sim_test, PettingZoo api_test, "
            "Gymnasium check_env and the batched env pass"
        )
    check_web()
    print(f"boardplay {boardplay.__version__} from {where.parent}")


def check_web() -> None:
    """``boardplay serve`` from the wheel: its page names the bundle's script and style sheet,
    and both are served, gzipped, to be kept a year."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'web.sqlite3'}"
        command = ["boardplay", "serve", "--port", str(port), "--db", db, "--ai-workers", "0"]
        server = subprocess.Popen([str(Path(sys.executable).parent / command[0]), *command[1:]])
        try:
            for _ in range(300):
                try:
                    page = urllib.request.urlopen(f"{base}/", timeout=5).read().decode()
                    break
                except (urllib.error.URLError, ConnectionError):
                    time.sleep(0.1)
            else:
                raise AssertionError("boardplay serve did not answer")
            files = re.findall(r'(?:src|href)="(/static/dist/[^"]+)"', page)
            assert len(files) == 2, f"the page does not name the bundle: {page}"
            for path in files:
                asked = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
                with urllib.request.urlopen(asked, timeout=5) as answer:
                    assert answer.headers["Content-Encoding"] == "gzip", path
                    assert "immutable" in answer.headers["Cache-Control"], path
                    assert len(answer.read()) > 1000, path
            print(f"boardplay serve: the page and its bundle ({', '.join(files)})")
            check_game_words(base)
        finally:
            server.terminate()
            server.wait(timeout=30)


def check_game_words(base: str) -> None:
    """Each game's words of the web catalogue live in its folder (``games/<game>/locale``), so
    the wheel must carry them: the Japanese catalogue the server sends names every game in
    Japanese and says its moves in Japanese (the four games' describers share ``Seat {n}``)."""
    with urllib.request.urlopen(f"{base}/api/i18n/ja", timeout=5) as answer:
        words = json.load(answer)["messages"]
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for name in boardplay.available():
        title = words.get(f"title.{name}", "")
        assert kana.search(title), f"{name}: its title is not Japanese in the wheel: {title!r}"
    assert words.get("Seat {n}") == "席{n}", "the games' move words are not Japanese in the wheel"
    print(f"boardplay serve: every game's words in Japanese ({len(words)} entries)")


if __name__ == "__main__":
    main()
