"""Decoding then encoding every bundled sample log gives back the same events, byte for byte."""

import pathlib

import msgspec
import pytest

from schema.events import AnyEvent

SAMPLES = sorted(pathlib.Path(__file__).resolve().parents[2].joinpath("sample_logs").rglob("*.jsonl"))
decoder = msgspec.json.Decoder(AnyEvent)
encoder = msgspec.json.Encoder()


def test_there_are_sample_logs():
    assert len(SAMPLES) >= 20


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_decode_then_encode_gives_the_same_events(path):
    for n, raw in enumerate(path.read_bytes().splitlines(), 1):
        event = decoder.decode(raw)
        again = encoder.encode(event)
        assert decoder.decode(again) == event, f"{path.name}:{n}"
        assert again == raw, f"{path.name}:{n}: the encoding differs"
