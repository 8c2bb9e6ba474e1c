"""``--audio-out DIR`` and ``export --audio DIR``: each utterance as ``DIR/NNNN-AGENT.wav`` (NNNN from 0001, in
the order spoken) and a line of ``DIR/index.jsonl`` for it: file, agentId, voice, text, sceneId, seconds."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from maic_tui.speech.wav import read_wav
from maic_tui.text_safety import json_safe

INDEX = "index.jsonl"


@dataclass
class AudioOut:
    folder: Path
    count: int = 0
    written: list[Path] = field(default_factory=list)

    def prepare(self) -> None:
        """The folder made; an index from an earlier run is started again, with its files."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("[0-9][0-9][0-9][0-9]-*.wav"):
            old.unlink()
        (self.folder / INDEX).write_text("", encoding="utf-8")

    def write(self, agent_id: str, voice: str, text: str, scene_id: str | None, wav: bytes) -> Path:
        self.count += 1
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", agent_id)[:40] or "agent"
        path = self.folder / f"{self.count:04d}-{safe}.wav"
        path.write_bytes(wav)
        line = {"file": path.name, "agentId": agent_id, "voice": voice, "text": text, "sceneId": scene_id,
                "seconds": round(read_wav(wav).seconds, 3)}
        with (self.folder / INDEX).open("a", encoding="utf-8") as index:
            index.write(json_safe(json.dumps(line, ensure_ascii=False)) + "\n")
        self.written.append(path)
        return path

    def write_class(self, wav: bytes) -> Path:
        path = self.folder / "class.wav"
        path.write_bytes(wav)
        return path


