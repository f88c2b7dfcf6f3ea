"""Voice front end: hotkey, recorder, speech to text, text to speech, proposals in words.

It sits outside the core: it consumes the Assistant API and its events, and the core
never imports it. Heavy libraries (faster_whisper, sounddevice, pynput) load on use.
"""
