"""The strict readers: one family, three error classes and phrasings."""

import pytest

import qe_rules as qe
from qe_rules._util.reading import ARGUMENTS, FIRST_KEY, Fields, Readers
from qe_rules.rules.values import DATA, DataError


@pytest.mark.parametrize(
    ("readers", "where", "error", "message"),
    [
        (
            ARGUMENTS,
            "view.seat",
            qe.InvalidArgument,
            "view.seat must be a whole number >= 0, got -1",
        ),
        (DATA, "rules.peeks", DataError, "rules.peeks: needs a whole number >= 0, got -1"),
        (
            Readers(qe.InvalidRecord),
            "'players'",
            qe.InvalidRecord,
            "'players' must be a whole number >= 0, got -1",
        ),
    ],
)
def test_each_family_raises_its_error_in_its_phrasing(readers, where, error, message):
    with pytest.raises(error) as raised:
        readers.whole(-1, where)
    assert type(raised.value) is error and str(raised.value) == message


def test_an_error_inside_a_value_names_where_it_is():
    read = DATA.parsed(qe.Company.parse, "a company code")
    assert read("US-FIN-2", "x") == qe.Company.parse("US-FIN-2")
    with pytest.raises(DataError) as raised:
        DATA.listed(["US-FIN-2", 5], "rules.removed", read)
    assert (raised.value.path, raised.value.problem) == (
        "rules.removed[1]",
        "needs a company code, got 5",
    )
    with pytest.raises(qe.InvalidRecord, match=r"^'deck'\[0\]: "):
        Readers(qe.InvalidRecord).listed(
            ["XX"], "'deck'", Readers(qe.InvalidRecord).parsed(qe.Company.parse)
        )


def test_integer_takes_any_sign_but_not_a_bool():
    assert ARGUMENTS.integer(-3, "x") == -3
    with pytest.raises(qe.InvalidArgument, match=r"^x must be a whole number, got True$"):
        ARGUMENTS.integer(True, "x")


def test_fields_word_their_keys_as_told():
    with pytest.raises(qe.InvalidRecord, match=r"^r lacks b$"):
        Fields({"a": 1}, "r", ["a", "b"], readers=Readers(qe.InvalidRecord))
    with pytest.raises(qe.InvalidArgument, match=r"^unknown key 'c' in r; allowed: a, b$"):
        Fields({"a": 1, "c": 2}, "r", ["a"], ["b"], keys=FIRST_KEY)
    with pytest.raises(qe.InvalidArgument, match=r"^r needs a$"):
        Fields({}, "r", ["a"], keys=FIRST_KEY)
