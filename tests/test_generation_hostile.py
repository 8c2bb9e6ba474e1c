"""``maic-tui new`` under attack: output paths and requests checked before any model call, wrongly typed answers
repaired instead of crashing, text made inert and secrets replaced in the file and the draft, counts enforced, and
``--from`` holding to the input rules (devices, FIFOs, hostile PDFs, a stop while a PDF is read)."""

from __future__ import annotations

import io
import json
import os
import sys
import time
import zlib
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.generation import material
from maic_tui.generation.material import MaterialError, read_material
from tests.fake_openai import Reply, fake_openai
from tests.pdfs import pdf_file
from tests.test_generation import OUTLINE, QUIZ, ROSTER, scene, script

KEY = "sk-hostile-5d41402abc4b2a76b9719d9110"


def _one_line(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize(("target", "words"), [
    ("/dev/null", ("not a regular file",)), ("fifo.toml", ("not a regular file",)), (".", ("is a directory",)),
    ("missing/class.toml", ("does not exist",)),
])
def test_a_bad_output_path_is_refused_before_any_model_call(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            target: str, words: tuple[str, ...]) -> None:
    os.mkfifo(tmp_path / "fifo.toml")
    path = target if target.startswith("/") else str(tmp_path / target)
    with fake_openai(Reply("{}")) as server:
        code = main(["new", "slopes", "--model", "openai:fake-model", "--base-url", server.url, "-o", path])
        _one_line(capsys, code, *words)
        assert server.requests == []
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")  # /dev/null is still a device
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.toml"]


@pytest.mark.parametrize(("args", "words"), [
    (["--language", "English"], ("--language 'English' is not a language code",)),
    (["--language", "en\n"], ("is not a language code",)),
    (["--from", "/dev/zero"], ("/dev/zero: cannot read the material (not a regular file",)),
])
def test_a_bad_request_is_refused_before_any_model_call(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        args: list[str], words: tuple[str, ...]) -> None:
    with fake_openai(Reply("{}")) as server:
        code = main(["new", "slopes", "--model", "openai:fake-model", "--base-url", server.url,
                     "-o", str(tmp_path / "x.toml"), *args])
        _one_line(capsys, code, *words)
        assert server.requests == []


def test_wrongly_typed_answers_are_repaired_not_crashed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = {"agents": ["Ms Hale", "Tom", "Kim", "Lee"]}
    flat = {**OUTLINE, "scenes": 3}
    quiz = {"questions": [{**QUIZ["questions"][0], "type": ["single"]}, QUIZ["questions"][1]]}
    single = {"questions": [{**QUIZ["questions"][0], "correct": 1}, QUIZ["questions"][1]]}  # one index: a list of one
    spec = script(tmp_path, outline=[flat, OUTLINE], roster=[names, ROSTER], quiz=[quiz, single])
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", spec, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "outline: repair 1: scenes: must be a valid list" in err
    assert "roster: repair 1: agents[0]: must be a valid dictionary" in err
    assert "quiz: repair 1: questions[0].type: must be 'single', 'multiple' or 'short_answer'" in err
    quiz_scene = next(s for s in load_classroom(out).scenes if s.type == "quiz")
    assert quiz_scene.questions[0].answer == ["b"]


def test_hostile_text_is_made_inert_and_the_key_replaced_in_the_file_and_the_draft(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outline = {**OUTLINE, "title": "Slopes\udc00 \x9b31m\u202eevil", "description": f"Key: {KEY}"}
    first = scene("Rise over run")
    first["lines"][0]["say"] = f"My key is {KEY}."
    spec = script(tmp_path, outline=[outline], quiz=["no json"] * 3)
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", spec, "--api-key", KEY, "-o", str(out)]) == 1
    partial = tmp_path / "slopes.toml.partial.json"
    raw = partial.read_text(encoding="utf-8")
    draft = json.loads(raw)["draft"]
    assert draft["title"] == "Slopes evil" and draft["description"] == "Key: ***"
    assert KEY not in raw and not any(0x80 <= ord(c) <= 0x9F or c == "\u202e" for c in raw)
    assert KEY not in capsys.readouterr().err
    spec = script(tmp_path, outline=[outline], scene=[first, scene("Steep and flat", True), scene("Slopes in life")])
    assert main(["new", "slopes", "--model", spec, "--api-key", KEY, "-o", str(out)]) == 0
    room = load_classroom(out)
    text = out.read_text(encoding="utf-8")
    assert room.title == "Slopes evil" and KEY not in text and "My key is ***." in text


def test_scenes_and_agents_are_enforced_one_call_per_scene(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    many = {**OUTLINE, "scenes": [{"title": f"Part {n}", "points": [f"point {n}"]} for n in range(12)]}
    crowd = {"agents": [*ROSTER["agents"], *({"name": f"Extra{n}", "role": "student", "persona": "Quiet."}
                                              for n in range(6))]}
    # Two scene answers only: a third call would find none and fail the run.
    spec = script(tmp_path, outline=[many], roster=[crowd], scene=[scene("Part 0"), scene("Part 1", True)])
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", spec, "--scenes", "2", "--agents", "3", "-o", str(out)]) == 0
    room = load_classroom(out)
    assert [s.title for s in room.scenes if s.type == "slide"] == ["Part 0", "Part 1"]
    assert len(room.agents) == 3 and "scene: 2/2 Part 1" in capsys.readouterr().err


def test_a_classroom_over_the_file_limit_is_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("maic_tui.generation.pipeline.MAX_FILE_BYTES", 2_000)
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", script(tmp_path), "-o", str(out)]) == 1
    assert "MB a file may have (stage final check" in capsys.readouterr().err
    assert not out.exists() and (tmp_path / "slopes.toml.partial.json").exists()


# --- --from -------------------------------------------------------------------------------------------------


def _shared_streampdf_file(pages: int, stream: bytes, compressed: bool = True) -> bytes:
    """``pages`` pages that all draw the same content stream (the PDF is small; its text is not)."""
    data = zlib.compress(stream, 9) if compressed else stream
    kids = " ".join(f"{4 + n} 0 R" for n in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
               b"<< /Length " + str(len(data)).encode() + (b" /Filter /FlateDecode" if compressed else b"")
               + b" >>\nstream\n" + data + b"\nendstream"]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
                b"/Resources << /Font << /F1 " + str(4 + pages).encode() + b" 0 R >> >> >>"] * pages
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    return pdf_file(objects)


def test_a_fifo_or_a_link_to_a_device_named_pdf_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.pdf")
    (tmp_path / "zero.pdf").symlink_to("/dev/zero")
    for name in ("x.pdf", "zero.pdf"):
        started = time.monotonic()
        with pytest.raises(MaterialError, match=rf"{name}: cannot read the material \(not a regular file"):
            read_material(tmp_path / name)
        assert time.monotonic() - started < 2


def test_a_pdf_whose_pages_share_one_stream_stops_at_the_character_limit(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(material, "MATERIAL_CHARS", 30_000)
    monkeypatch.setattr(material, "PAGE_CHARS", 5_000)
    stream = b" ".join(b"BT /F1 12 Tf 72 720 Td (slope) Tj ET" for _ in range(3_000))  # 15,000 characters a page
    path = tmp_path / "book.pdf"
    path.write_bytes(_shared_streampdf_file(40, stream))
    assert path.stat().st_size < 10_000
    with pytest.raises(MaterialError, match=r"book\.pdf: more than 30,000 characters of text is too long"):
        read_material(path)
    monkeypatch.setattr(material, "PDF_PAGES", 10)
    with pytest.raises(MaterialError, match=r"book\.pdf: 40 pages is too long for one lesson's material"):
        read_material(path)


def _bomb() -> bytes:
    pdf = _shared_streampdf_file(1, zlib.compress(b" " * 100_000_000, 9), compressed=False)
    return pdf.replace(b" >>\nstream", b" /Filter /FlateDecode >>\nstream", 1)


def _deep_tree(depth: int) -> bytes:
    kids = [f"<< /Type /Pages /Kids [{n + 3} 0 R] /Count 1 >>".encode() for n in range(depth)]
    return pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", *kids, b"<< /Type /Page /MediaBox [0 0 10 10] >>"])


@pytest.mark.parametrize(("content", "words"), [
    (_bomb(), "Limit reached while decompressing"),  # 100 MB of spaces in a 100 kB file
    (pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]), "cyclic"),
    (_deep_tree(5_000), "page tree depth"),
    (b"%PDF-1.4 nothing", "not a readable PDF"),
], ids=["decompression bomb", "cyclic page tree", "deep page tree", "no structure"])
def test_hostile_pdfs_are_one_line_naming_the_file(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "bad.pdf"
    path.write_bytes(content)
    with pytest.raises(MaterialError) as caught:
        read_material(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not a readable PDF (") and words in message and "\n" not in message


def test_an_encrypted_pdf_says_so(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.encrypt("secret", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    (tmp_path / "locked.pdf").write_bytes(buffer.getvalue())
    with pytest.raises(MaterialError, match=r"locked\.pdf: the PDF is encrypted; give its text instead"):
        read_material(tmp_path / "locked.pdf")


class _StopAfter:
    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    @property
    def stopping(self) -> bool:
        return time.monotonic() >= self.at


def _stuck_worker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A PDF reader that never finishes (as pypdf on a hostile file may not), whose pid the test can check."""
    pid_file = tmp_path / "worker.pid"
    code = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)"
    monkeypatch.setattr(material, "WORKER", [sys.executable, "-c", code])
    (tmp_path / "m.pdf").write_bytes(b"%PDF-1.4\n")
    return pid_file


def _gone(pid_file: Path) -> bool:
    try:
        os.kill(int(pid_file.read_text()), 0)
    except ProcessLookupError:
        return True
    return False


def test_a_stop_while_a_pdf_is_read_ends_its_worker_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pid_file = _stuck_worker(monkeypatch, tmp_path)
    started = time.monotonic()
    assert read_material(tmp_path / "m.pdf", _StopAfter(1.0)) == ""
    assert time.monotonic() - started < 3 and _gone(pid_file)


def test_a_pdf_that_takes_too_long_is_one_line_and_its_worker_ends(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pid_file = _stuck_worker(monkeypatch, tmp_path)
    monkeypatch.setattr(material, "PDF_SECONDS", 1.0)
    with pytest.raises(MaterialError, match=r"m\.pdf: reading the PDF took longer than 1 s"):
        read_material(tmp_path / "m.pdf")
    assert _gone(pid_file)


def test_ctrl_c_while_a_pdf_is_read_stops_before_any_model_call(tmp_path: Path) -> None:
    import signal
    import subprocess

    (tmp_path / "m.pdf").write_bytes(b"%PDF-1.4\n")
    code = ("import sys, time; from maic_tui.generation import material; "
            "material.WORKER = [sys.executable, '-c', 'import time; time.sleep(600)']; "
            "from maic_tui.cli import main; sys.exit(main(sys.argv[1:]))")
    with fake_openai(Reply("{}")) as server:
        process = subprocess.Popen([sys.executable, "-c", code, "new", "slopes", "--from", str(tmp_path / "m.pdf"),
                                    "--model", "openai:fake-model", "--base-url", server.url,
                                    "-o", str(tmp_path / "x.toml")], stderr=subprocess.PIPE, text=True)
        time.sleep(3)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
        assert process.returncode == 130 and err.strip() == "maic-tui: stopped before the first model call"
        assert server.requests == []
    assert not (tmp_path / "x.toml").exists()


def test_a_write_that_fails_at_the_end_keeps_the_generated_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from maic_tui.commands import new as new_command

    out = tmp_path / "slopes.toml"
    real = new_command.write_atomically

    def full_disk(path: Path, text: str, mode: int = 0o644) -> None:
        if path == out:
            raise OSError(28, "No space left on device")
        real(path, text, mode)

    monkeypatch.setattr(new_command, "write_atomically", full_disk)
    assert main(["new", "slopes", "--model", script(tmp_path), "-o", str(out)]) == 1
    partial = tmp_path / "slopes.toml.partial.json"
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"maic-tui: cannot write {out}: No space left on device; what was made is in {partial}")
    kept = json.loads(partial.read_text(encoding="utf-8"))
    assert kept["stoppedAt"] == "write" and len(kept["draft"]["scenes"]) == 4 and not out.exists()
