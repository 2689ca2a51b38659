"""A new catalog joins the project file that lists the catalogs (gettext's `LINGUAS`): outputs/
reads and writes it (outputs/listings.py), the format only computes its bytes
(formats/ecosystems/linguas_join.py). Nothing is written where there is nothing to do."""

from __future__ import annotations

from pathlib import Path

from hymt_cli.formats.ecosystems.linguas_join import linguas_listing
from hymt_cli.outputs.listings import join


def _never(path: Path) -> bool:
    return False


def test_a_new_catalog_joins_linguas_in_its_style(tmp_path: Path) -> None:
    (tmp_path / "LINGUAS").write_bytes(b"de\r\nzh_TW\r\n")
    listing = linguas_listing(tmp_path / "ja.po")
    assert listing is not None
    told = join(listing, _never)
    assert told == f"{tmp_path / 'LINGUAS'}: ja added (the catalogs meson and autotools build)"
    assert (tmp_path / "LINGUAS").read_bytes() == b"de\r\nja\r\nzh_TW\r\n"
    assert join(listing, _never) is None  # listed already: left as it is
    assert (tmp_path / "LINGUAS").read_bytes() == b"de\r\nja\r\nzh_TW\r\n"


def test_no_linguas_is_made_and_only_po_catalogs_join(tmp_path: Path) -> None:
    listing = linguas_listing(tmp_path / "ja.po")
    assert listing is not None and join(listing, _never) is None
    assert list(tmp_path.iterdir()) == []
    assert linguas_listing(tmp_path / "ja.json") is None


def test_a_linguas_not_utf8_is_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "LINGUAS").write_bytes(b"de\nfr\xe9\n")
    listing = linguas_listing(tmp_path / "ja.po")
    assert listing is not None
    assert join(listing, _never) == (
        f"{tmp_path / 'LINGUAS'}: cannot be read: add ja to it yourself (meson builds only what it lists)"
    )
    assert (tmp_path / "LINGUAS").read_bytes() == b"de\nfr\xe9\n"


def test_a_linguas_that_is_an_input_is_never_written(tmp_path: Path) -> None:
    (tmp_path / "LINGUAS").write_bytes(b"de\n")
    listing = linguas_listing(tmp_path / "ja.po")
    assert listing is not None
    told = join(listing, lambda path: path == tmp_path / "LINGUAS")
    assert told == f"{tmp_path / 'LINGUAS'}: cannot be written (an input of this run): add ja to it yourself"
    assert (tmp_path / "LINGUAS").read_bytes() == b"de\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LINGUAS"]  # (no temp file left)
