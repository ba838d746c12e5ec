"""The command line without the web extra: a library-only install (``make wheel-lib``, ``pip
install 'boardplay[rl]'``) has no SQLAlchemy, FastAPI or uvicorn, and every command but
``serve`` and ``db`` must work there. ``boardplay review`` words moves with the web's describers
(``web/words.py``), which must stay free of the server's packages."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = ("sqlalchemy", "fastapi", "starlette", "uvicorn", "alembic")


def test_sim_and_review_run_without_the_web_packages() -> None:
    script = (
        "import sys\n"
        + "".join(f"sys.modules[{name!r}] = None\n" for name in BLOCKED)
        + "import boardplay.cli.review, boardplay.web.words\n"
        + "from boardplay.cli.main import main\n"
        + "try:\n"
        + "    main(['sim', 'potlatch', '--games', '3', '--seed', '1'])\n"
        + "except SystemExit as exc:\n"
        + "    sys.exit(exc.code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "random games of potlatch" in done.stdout
