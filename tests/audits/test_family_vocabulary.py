"""Fan names and transfer reasons belong to the families; the schema's wire vocabulary
(what a log line may contain, refused otherwise) is exactly their union."""

from typing import get_args

from audits.rules import FAMILIES
from schema import events as ev


def test_the_schema_fan_names_are_the_families_fans():
    names = set()
    for family in FAMILIES.values():
        names |= set(family.scoring.fan_values)
    # the new families' shared names (new-families.md §3) are on the wire before their families
    assert set(get_args(ev.FanName)) == names | set(ev.NEW_FAMILY_FANS)


def test_the_schema_transfer_reasons_are_the_families_reasons():
    reasons = set()
    for family in FAMILIES.values():
        reasons |= set(family.settlement.transfer_labels)
    assert set(get_args(ev.TransferReason)) == reasons | set(ev.NEW_FAMILY_REASONS)


def test_every_fan_has_a_chinese_name():
    for family in FAMILIES.values():
        assert set(family.scoring.fan_chinese) == set(family.scoring.fan_values), family.name
