"""The precomputed per-suit minima (audits.rules.suit_minima) are the programme's answers."""

from audits.rules import hands, suit_minima


def _key(counts):
    k = 0
    for x in counts:
        k = k * 5 + x
    return k


def test_stored_minima_agree_with_the_programme_on_a_random_sample():
    assert suit_minima.check(samples=400, seed=7) == []


def test_the_check_reports_an_entry_that_disagrees(monkeypatch):
    """Near miss: a stored table that differs from the programme everywhere is reported."""
    suits, honours = hands.stored_minima()
    shifted = bytes(min(254, x + 1) if x != 255 else x for x in suits)
    monkeypatch.setattr(hands, "_STORED", [shifted, honours])
    bad = suit_minima.check(samples=50, seed=3)
    assert bad and all("stored" in line and "derived" in line for line in bad)


def test_the_win_check_reads_the_stored_minima(monkeypatch):
    """A suit met for the first time takes its entry from the file (not the programme)."""
    counts = [0] * 34
    for t in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 30):  # 123m 123p 123s 111z 4z + a wild
        counts[t] += 1
    assert hands.is_complete(counts, 1)
    suits, honours = hands.stored_minima()
    k = _key((1, 1, 1, 0, 0, 0, 0, 0, 0))
    bad = bytearray(suits)
    bad[2 * k] = 9  # claims the run needs nine wilds
    monkeypatch.setattr(hands, "_STORED", [bytes(bad), honours])
    monkeypatch.setattr(hands, "_SUIT_TABLE", {})
    monkeypatch.setattr(hands, "_SUIT_BYTES", {})
    monkeypatch.setattr(hands, "_prefilled", True)
    assert not hands.is_complete(counts, 1)


def test_suits_larger_than_a_hand_fall_back_to_the_programme(monkeypatch):
    monkeypatch.setattr(hands, "_SUIT_TABLE", {})
    counts = (4, 4, 4, 3, 0, 0, 0, 0, 0)  # 15 tiles: outside the file
    k = _key(counts)
    assert hands.stored_minima()[0][2 * k] == 255
    assert hands.suit_entry(k) == hands._entry(*suit_minima.derive(counts, True))
