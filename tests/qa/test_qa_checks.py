"""Each QA check on real-looking product text in several languages (de, fr, ja, zh, ar, ru):
answers it must flag (true positives) and good translations it must let pass (the false
alarms a reviewer would stop trusting it for)."""

from __future__ import annotations

import pytest

from hymt_cli.qa import BY_ID, CHECK_IDS, QaOptions, check_answer
from hymt_cli.qa.judgements import Pair

# (check, source, answer, target, flagged?)
CASES: list[tuple[str, str, str, str, bool]] = [
    # -- number: same multiset of values, locale formats allowed -----------------------------------
    ("number", "Price: $1,299.00 incl. VAT", "Preis: 1.299,00 $ inkl. MwSt.", "de", False),
    ("number", "Price: $1,299.00 incl. VAT", "Preis: 1.399,00 $ inkl. MwSt.", "de", True),
    ("number", "Price: $1,299.00 incl. VAT", "Prix : 1 299,00 $ TTC", "fr", False),  # U+202F group
    ("number", "Price: $1,299.00 incl. VAT", "価格：1,299.00ドル（税込）", "ja", False),
    (
        "number",
        "Price: $1,299.00 incl. VAT",
        "価格：1.299,00ドル（税込）",
        "ja",
        True,
    ),  # German format in Japanese
    ("number", "Prix : 1 299,00 € TTC", "Price: €1,299.00 incl. VAT", "en", False),
    ("number", "Warranty: 24 months", "Garantie : 24 mois", "fr", False),
    ("number", "Warranty: 24 months", "Garantie : 12 mois", "fr", True),
    ("number", "Warranty: 24 months", "保修期：二十四个月", "zh", False),  # written out in Chinese numerals
    ("number", "Warranty: 24 months", "保修期：十二个月", "zh", True),  # ... as another number
    (
        "number",
        "Battery: 5,000 mAh, charges in 2 hours",
        "Аккумулятор: 5000 мА·ч, заряжается за 2 часа",
        "ru",
        False,
    ),
    (
        "number",
        "Battery: 5,000 mAh, charges in 2 hours",
        "Аккумулятор: 500 мА·ч, заряжается за 2 часа",
        "ru",
        True,
    ),
    ("number", "Weight: 1.5 kg", "Вес: 1,5 кг", "ru", False),
    ("number", "Weight: 1.5 kg", "Вес: 15 кг", "ru", True),
    ("number", "Weight: 1.5 kg", "الوزن: ١٫٥ كغ", "ar", False),  # Arabic-Indic digits and decimal mark
    ("number", "Weight: 1.5 kg", "الوزن: ٢٫٥ كغ", "ar", True),
    ("number", "数量：１２個", "Quantity: 12 pieces", "en", False),  # full-width digits
    ("number", "¥12,000（税込）", "含税1.2万日元", "zh", False),  # a myriad
    ("number", "Open 9 AM to 5:30 PM", "Geöffnet von 9 bis 17:30 Uhr", "de", False),  # 24-hour clock
    ("number", "Open 9 AM to 5:30 PM", "Geöffnet von 9 bis 16:30 Uhr", "de", True),
    ("number", "Pack of 2 500 ml bottles", "Lot de 2 bouteilles de 500 ml", "fr", False),
    ("number", "Firmware 2.4.1 fixes bug 1,024", "Firmware 2.4.1 behebt Fehler 1.024", "de", False),
    ("number", "Ships in 3-5 days", "Versand in 3–5 Tagen", "de", False),
    (
        "number",
        "Model XR-2000 with A4 paper",
        "Modell XR-3000 mit A4-Papier",
        "de",
        False,
    ),  # SKU, not numbers
    ("number", "Rs 1,50,000 only", "केवल ₹1,50,000", "hi", False),  # Indian grouping
    ("number", "Steps 1, 2 and 3", "Schritte 1, 2 und 4", "de", True),
    # -- url, email ---------------------------------------------------------------------------------
    (
        "url",
        "Manual: https://example.com/docs/xr-2000.",
        "Handbuch: https://example.com/docs/xr-2000.",
        "de",
        False,
    ),
    (
        "url",
        "Manual: https://example.com/docs/xr-2000.",
        "マニュアル：https://example.com/docs/xr-2000をご覧ください。",
        "ja",
        False,
    ),
    (
        "url",
        "Manual: https://example.com/docs/xr-2000.",
        "Handbuch: https://beispiel.de/docs/xr-2000.",
        "de",
        True,
    ),
    ("url", "See www.example.com/help", "Voir www.example.com/aide", "fr", True),
    (
        "url",
        "See https://example.com/help",
        "ｈｔｔｐｓ：／／ｅｘａｍｐｌｅ．ｃｏｍ／ｈｅｌｐをご覧ください",
        "ja",
        True,
    ),
    (
        "url",
        "See HTTPS://Example.com/a%20b",
        "Siehe https://example.com/a b".replace(" b", "%20b"),
        "de",
        False,
    ),
    (
        "url",
        "Docs (https://en.wikipedia.org/wiki/A4_(paper)).",
        "Docs (https://en.wikipedia.org/wiki/A4_(paper)).",
        "fr",
        False,
    ),
    ("email", "Contact sales@example.com today.", "Связаться: sales@example.com сегодня.", "ru", False),
    ("email", "Contact sales@example.com today.", "اتصل بـ sales@example.com اليوم.", "ar", False),
    ("email", "Contact sales@example.com today.", "Kontakt: vertrieb@example.com heute.", "de", True),
    ("email", "Contact sales@example.com today.", "请今天联系我们。", "zh", True),
    # -- path, handle, hashtag --------------------------------------------------------------------------
    (
        "path",
        "Edit /etc/hymt/config.toml first.",
        "Bearbeiten Sie zuerst /etc/hymt/config.toml.",
        "de",
        False,
    ),
    (
        "path",
        "Edit /etc/hymt/config.toml first.",
        "Modifiez d'abord /etc/hymt/configuration.toml.",
        "fr",
        True,
    ),
    ("path", "Run setup.exe and accept.", "运行 setup.exe 并接受。", "zh", False),
    ("path", "Use either/or, at 24/7 speed.", "Entweder/oder, rund um die Uhr.", "de", False),
    ("handle", "Follow @hymt_app for news.", "Suivez @hymt_app pour les actualités.", "fr", False),
    ("handle", "Follow @hymt_app for news.", "Suivez @hymt pour les actualités.", "fr", True),
    ("hashtag", "Share it with #BlackFriday", "Teilen Sie es mit #BlackFriday", "de", False),
    ("hashtag", "Share it with #BlackFriday", "Teilen Sie es mit #SchwarzerFreitag", "de", True),
    ("hashtag", "Track no. #42 in C# and F#", "Titel Nr. 42 in C# und F#", "de", False),  # not hashtags
    # -- sku ----------------------------------------------------------------------------------------
    ("sku", "The XR-2000 prints on A4 paper.", "Der XR-2000 druckt auf A4-Papier.", "de", False),
    ("sku", "The XR-2000 prints on A4 paper.", "XR-2000はA4用紙に印刷します。", "ja", False),
    # full-width forms are a Japanese way to write the same code (a full-width URL is no link, though)
    ("sku", "The XR-2000 prints on A4 paper.", "ＸＲ－２０００はＡ４用紙に印刷します。", "ja", False),
    ("sku", "The XR-2000 prints on A4 paper.", "Der XR-3000 druckt auf A4-Papier.", "de", True),
    ("sku", "The XR-2000 prints on A4 paper.", "Der XR-2000 druckt auf Papier.", "de", True),
    ("sku", "An MP3-Player with 128GB and 4K video", "Un lecteur MP3 avec 128 Go et vidéo 4K", "fr", False),
    ("sku", "Order SKU B07XYZ1234 now", "Закажите артикул B07XYZ1234 сейчас", "ru", False),
    (
        "sku",
        "Use x86_64 builds, 5kg max, 2nd floor",
        "Utilisez les builds x86-64, 5 kg max, 2e étage",
        "fr",
        False,
    ),
    # -- brackets, quotes -----------------------------------------------------------------------------
    ("brackets", "Cable (2 m) included.", "Kabel (2 m) im Lieferumfang.", "de", False),
    ("brackets", "Cable (2 m) included.", "附带电缆（2米）。", "zh", False),  # full-width brackets
    ("brackets", "Cable (2 m) included.", "Kabel (2 m im Lieferumfang.", "de", True),
    ("brackets", "Cable (2 m) included.", "Kabel, 2 m, im Lieferumfang.", "de", False),  # dropped as a pair
    (
        "brackets",
        "1) Open the lid. 2) Insert paper.",
        "1) Öffnen Sie den Deckel. 2) Papier einlegen.",
        "de",
        False,
    ),
    ("brackets", "1) Open the lid. 2) Insert paper.", "1）蓋を開けます。2）用紙を入れます。", "ja", False),
    ("brackets", "[New] Wireless model", "【新品】ワイヤレスモデル", "ja", False),
    ("brackets", "[New] Wireless model", "[Neu Kabelloses Modell", "de", True),
    ("quotes", 'Click "Save" to finish.', "Klicken Sie auf „Speichern“, um abzuschließen.", "de", False),
    ("quotes", 'Click "Save" to finish.', "Cliquez sur « Enregistrer » pour terminer.", "fr", False),
    ("quotes", 'Click "Save" to finish.', "「保存」をクリックして完了します。", "ja", False),
    ("quotes", 'Click "Save" to finish.', "「保存をクリックして完了します。", "ja", True),
    ("quotes", 'Click "Save" to finish.', "Нажмите «Сохранить, чтобы завершить.", "ru", True),
    ("quotes", 'A 27" monitor', "Ein 27-Zoll-Monitor", "de", False),  # an inch mark is no quote
    # -- whitespace, end punctuation -----------------------------------------------------------------
    ("whitespace", "Name: ", "Nom : ", "fr", False),
    ("whitespace", "Name: ", "Nom :", "fr", True),
    ("whitespace", "\nTotal", "Gesamt", "de", True),
    ("end-punctuation", "Add to cart.", "In den Warenkorb.", "de", False),
    ("end-punctuation", "Add to cart.", "加入购物车。", "zh", False),
    ("end-punctuation", "Add to cart.", "カートに追加", "ja", True),
    ("end-punctuation", "Are you sure?", "هل أنت متأكد؟", "ar", False),
    ("end-punctuation", "Are you sure?", "Вы уверены?", "ru", False),
    ("end-punctuation", "Are you sure?", "Êtes-vous sûr ?", "fr", False),
    ("end-punctuation", "Are you sure?", "よろしいですか。", "ja", False),  # か。 asks in Japanese
    ("end-punctuation", "Are you sure?", "Sind Sie sicher.", "de", True),
    ("end-punctuation", "Loading...", "Wird geladen …", "de", False),
    ("end-punctuation", "Loading...", "Wird geladen.", "de", True),
    ("end-punctuation", 'He said "ready."', "Il a dit « prêt ».", "fr", False),  # closers looked through
    ("end-punctuation", "Free shipping", "Kostenloser Versand!", "de", True),
    (
        "end-punctuation",
        "Save <s1>now</s1>.",
        "<s1>Jetzt</s1> speichern.",
        "de",
        False,
    ),  # tags looked through
    ("end-punctuation", "Ready.", "พร้อม", "th", False),  # Thai marks no sentence end
    # -- doubled word, untranslated --------------------------------------------------------------------
    ("doubled-word", "Save the file.", "Speichern Sie die Datei die.", "de", False),
    ("doubled-word", "Save the file.", "Enregistrez le le fichier.", "fr", True),
    ("doubled-word", "Save the file.", "Сохраните файл файл.", "ru", True),
    ("doubled-word", "We washed ourselves.", "Nous nous sommes lavés.", "fr", False),  # grammar
    # words alike but for an accent in the source (`que qué`): written alike in an answer
    ("doubled-word", "¿Cómo que qué fiesta?", "¿Çóɱó ʠúé ʠúé ƒíéšţá?", "de", False),
    ("doubled-word", "¿Cómo que fiesta?", "Wie wie Party?", "de", True),
    ("doubled-word", "The woman who saw the cat.", "Die Frau, die die Katze sah.", "de", False),  # grammar
    (
        "doubled-word",
        "Welcome to Bora Bora",
        "Bienvenue à Bora Bora",
        "fr",
        False,
    ),  # doubled in the source too
    ("doubled-word", "Look at it.", "ちょっと見て見て", "ja", False),  # no spaces: not judged
    ("doubled-word", "Slowly.", "Từ từ.", "vi", False),  # Vietnamese reduplication
    ("untranslated", "Add the item to your cart now.", "Add the item to your cart now.", "de", True),
    ("untranslated", "Add the item to your cart now.", "Fügen Sie den Artikel jetzt hinzu.", "de", False),
    ("untranslated", "iPhone 15 Pro Max", "iPhone 15 Pro Max", "de", False),  # a name
    ("untranslated", "GNU GENERAL PUBLIC LICENSE", "GNU GENERAL PUBLIC LICENSE", "fr", False),
    ("untranslated", "XR-2000", "XR-2000", "ja", False),
    ("untranslated", "https://example.com/a", "https://example.com/a", "ja", False),
    ("untranslated", "请将商品加入购物车。", "请将商品加入购物车。", "en", True),
    ("untranslated", "OK", "OK", "zh", False),
]


@pytest.mark.parametrize(
    ("check", "source", "answer", "target", "flagged"),
    CASES,
    ids=[f"{c[0]}-{i}-{c[3]}-{'flag' if c[4] else 'pass'}" for i, c in enumerate(CASES)],
)
def test_check(check: str, source: str, answer: str, target: str, flagged: bool) -> None:
    run = BY_ID[check].run
    assert run is not None
    message = run(Pair(source, answer, target))
    assert (message is not None) == flagged, message
    flags = check_answer(source, answer, target)
    assert any(f.check == check for f in flags) == flagged


def test_every_answer_check_has_cases_both_ways() -> None:
    for check in CHECK_IDS:
        if BY_ID[check].run is None:  # found across the run, or by a format: no answer case
            continue
        assert {flagged for c, *_, flagged in CASES if c == check} == {True, False}, check


@pytest.mark.parametrize("source", sorted({c[1] for c in CASES}))
def test_a_source_is_its_own_perfect_answer(source: str) -> None:
    """The identity answer flags nothing but `untranslated` (off for engines that do not translate)."""
    assert {f.check for f in check_answer(source, source, "de")} <= {"untranslated"}
    assert check_answer(source, source, "de", translating=False) == ()


def test_severities_follow_the_defaults_and_the_options() -> None:
    source, answer = "24 months (see https://example.com).", "12 Monate (siehe https://example.org"
    flags = {f.check: f.severity for f in check_answer(source, answer, "de")}
    assert flags == {"number": "error", "url": "error", "brackets": "warning", "end-punctuation": "warning"}
    options = QaOptions.parse("all=warning,url=error,brackets=off")
    flags = {f.check: f.severity for f in check_answer(source, answer, "de", options=options)}
    assert flags == {"number": "warning", "url": "error", "end-punctuation": "warning"}
