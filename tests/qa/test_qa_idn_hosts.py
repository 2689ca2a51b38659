"""An internationalized host is the same host in Unicode and in its ASCII (punycode) form:
`https://bücher.de/x` and `https://xn--bcher-kva.de/x` are one address (browsers send the
second), so an answer that writes one for the other keeps the URL. The url check (an error)
compared the two as different and threw the answer away. Another host is still caught."""

from __future__ import annotations

from hymt_cli.qa import check_answer
from hymt_cli.qa.addresses import host_key


def test_a_host_in_unicode_or_punycode_is_the_same_url() -> None:
    assert check_answer("See https://bücher.de/x", "Siehe https://xn--bcher-kva.de/x", "de", "en") == ()
    assert check_answer("See https://XN--BCHER-KVA.de/x", "Voir https://bücher.de/x", "fr", "en") == ()


def test_another_host_is_still_a_changed_url() -> None:
    flags = check_answer("See https://bücher.de/x", "Siehe https://buecher.de/x", "de", "en")
    assert [f.check for f in flags] == ["url"]


def test_a_label_that_is_no_punycode_is_compared_as_written() -> None:
    assert host_key("xn--zz.example") == "xn--zz.example"
    assert host_key("Shop.xn--bcher-kva.de") == "shop.bücher.de"
