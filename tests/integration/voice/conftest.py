from tests.support.audio import pulse, speech, transcriber

__all__ = ["pulse", "speech", "transcriber"]
