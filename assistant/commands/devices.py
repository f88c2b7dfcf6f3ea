"""`assistant devices [--json]`: the audio devices, to pick input_device / output_device."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant devices",
                                     description="List audio devices (index, name, channels).")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)

    from assistant.voice.recorder import AudioDeviceError, list_devices, sounddevice

    try:
        devices = list_devices()
        sd = sounddevice()
        default_in, default_out = sd.default.device
    except AudioDeviceError as exc:
        print(f"assistant: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(devices))
        return 0
    if not devices:
        print("assistant: no audio devices found: connect a microphone and speakers "
              "(or start PulseAudio)", file=sys.stderr)
        return 1
    for device in devices:
        marks = [mark for mark, default in (("default input", default_in),
                                            ("default output", default_out))
                 if device["index"] == default]
        kinds = f"in {device['inputs']}, out {device['outputs']}"
        extra = f"  ({', '.join(marks)})" if marks else ""
        print(f"{device['index']:>3}  {device['name']}  [{kinds}]{extra}")
    return 0
