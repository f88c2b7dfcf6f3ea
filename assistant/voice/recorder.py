"""The microphone: a sounddevice InputStream at 16 kHz mono, handing blocks to a callback.

Blocks go to the callback as they arrive (to feed an incremental transcription) and are
kept, so stop() returns the whole take.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from assistant.voice.wav import SAMPLE_RATE

BLOCK_S = 0.05
NO_INPUT = ("no audio input device found: plug in or enable a microphone (on Linux check "
            "`pactl list short sources` or `arecord -l`), or pick one from `assistant devices` "
            "with --input-device or input_device in config.toml")


class AudioDeviceError(Exception):
    """No usable device; the message names the fix."""


def sounddevice() -> Any:
    """Import sounddevice, turning a missing PortAudio library into an instruction."""
    try:
        import sounddevice as sd
    except ImportError:
        raise AudioDeviceError("audio needs sounddevice: pip install 'assistant[voice]'") from None
    except OSError:
        raise AudioDeviceError(
            "the PortAudio library is missing: apt-get install libportaudio2"
        ) from None
    return sd


def list_devices() -> list[dict[str, Any]]:
    """Every device PortAudio sees: index, name, input and output channels, default rate."""
    sd = sounddevice()
    return [{"index": index, "name": device["name"],
             "inputs": device["max_input_channels"], "outputs": device["max_output_channels"],
             "rate": device["default_samplerate"]}
            for index, device in enumerate(sd.query_devices())]


def find_device(spec: str | int | None, kind: str = "input") -> int | None:
    """A device index from an index or part of a name; None means the system default.

    Raises AudioDeviceError when no device of that kind exists or none matches.
    """
    devices = [d for d in list_devices() if d["inputs" if kind == "input" else "outputs"] > 0]
    if not devices:
        if kind == "input":
            raise AudioDeviceError(NO_INPUT)
        raise AudioDeviceError("no audio output device found: enable a speaker or headphones, "
                               "or write speech to a file with --out FILE.wav")
    if spec is None or spec == "":
        return None
    text = str(spec).strip()
    if text.isdigit():
        if any(d["index"] == int(text) for d in devices):
            return int(text)
    else:
        for device in devices:
            if text.lower() == device["name"].lower():
                return device["index"]
        for device in devices:
            if text.lower() in device["name"].lower():
                return device["index"]
    names = ", ".join(f"{d['index']}: {d['name']}" for d in devices)
    raise AudioDeviceError(f"no {kind} device matches {text!r}; choose one of: {names}")


class Recorder:
    """Records while started; several recorders may exist, each with its own stream."""

    def __init__(self, device: str | int | None = None) -> None:
        self._device = find_device(device, "input")
        self._blocks: list[Any] = []
        self._stream: Any = None
        self._lock = threading.Lock()
        self._on_block: Callable[[Any], None] | None = None

    def start(self, on_block: Callable[[Any], None] | None = None) -> None:
        """Open the microphone; `on_block` gets each float32 block, from the audio thread."""
        sd = sounddevice()
        self._blocks = []
        self._on_block = on_block
        try:
            self._stream = sd.InputStream(
                samplerate=SAMPLE_RATE, channels=1, dtype="float32", device=self._device,
                blocksize=int(BLOCK_S * SAMPLE_RATE), callback=self._callback,
            )
            self._stream.start()
        except sd.PortAudioError as exc:
            self._stream = None
            raise AudioDeviceError(f"cannot open the microphone: {exc}") from None

    def _callback(self, data: Any, frames: int, time: Any, status: Any) -> None:
        block = data[:, 0].copy()
        with self._lock:
            self._blocks.append(block)
        if self._on_block is not None:
            self._on_block(block)

    @property
    def recording(self) -> bool:
        return self._stream is not None

    def stop(self) -> Any:
        """Close the microphone and return the take as float32 16 kHz mono."""
        import numpy as np

        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        with self._lock:
            blocks, self._blocks = self._blocks, []
        return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)
