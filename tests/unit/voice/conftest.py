from tests.support.audio import speech, transcriber

__all__ = ["speech", "transcriber"]
