"""A generated, realistic translation job: a folder of Markdown, HTML and plain-text documents.

Deterministic for a seed. Documents are written in several source languages (mostly English,
some Chinese, French, German, Japanese, Russian), share boilerplate (navigation labels,
footers, notes) as real documentation sites do, carry inline markup (bold, code, links:
HY-MT's formatted-translation prompt) and the terms of the example glossaries in
`glossaries/`. Segment lengths follow documentation: short headings and labels, list items,
and paragraphs of a few sentences.

    python bench/workload.py OUT_DIR --docs 200
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

_EN = (
    "the of and to in a is that for it as with be by on not this are or from at which have an "
    "you all can will your more when if so no what about out up into time only some new other "
    "two then data file page user account project service server request response storage "
    "network setting option update version release feature support error message access key "
    "bucket object region cluster instance console report table column value field limit "
    "quota policy role permission team invoice payment plan tier backup restore upload "
    "download folder document section chapter guide step example default create delete list "
    "open close start stop run build test deploy configure enable disable check review"
).split()
_EN_TERMS = [
    "Cloud Storage",
    "storage bucket",
    "free tier",
    "region",
    "Acme Console",
    "Sign in",
    "Dashboard",
    "Billing",
]
_FR = (
    "le la les de des du un une et est dans pour que qui sur avec par pas plus ce cette son "
    "fichier page utilisateur compte projet service serveur demande réponse stockage réseau "
    "paramètre option mise jour version fonction erreur message accès clé région facture"
).split()
_DE = (
    "der die das und ist in zu den mit von für auf nicht eine ein dem des sich auch als "
    "Datei Seite Benutzer Konto Projekt Dienst Server Anfrage Antwort Speicher Netzwerk "
    "Einstellung Option Aktualisierung Version Funktion Fehler Nachricht Zugriff Schlüssel"
).split()
_RU = (
    "и в не на что с как по это для из от файл страница пользователь учетная запись проект "
    "служба сервер запрос ответ хранилище сеть параметр версия функция ошибка сообщение"
).split()
_ZH = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后"
    "多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合"
    "还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只"
    "没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边"
    "流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造"
    "百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例"
    "真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且"
    "究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何"
    "除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满"
    "县局照参红细引听该铁价严"
)
_JA = (
    "ファイルページユーザーアカウントプロジェクトサービスサーバーリクエストストレージネットワーク"
    "設定更新機能エラー表示確認作成削除一覧開始停止実行保存読込管理画面項目利用方法場合手順"
    "のはをにがでとしてからまでよりもへやなどするされるできますありませんこれそれ"
)
_LANGS = [("en", 0.55), ("zh", 0.15), ("fr", 0.08), ("de", 0.08), ("ja", 0.08), ("ru", 0.06)]
_LABELS = {
    "en": [
        "Sign in",
        "Dashboard",
        "Billing",
        "Documentation",
        "Pricing",
        "Support",
        "Contact us",
        "Next",
        "Previous",
        "Table of contents",
        "Was this page helpful?",
        "Edit this page",
        "Search",
        "Settings",
        "Status",
        "Release notes",
    ],
    "zh": ["登录", "控制台", "费用中心", "文档", "价格", "技术支持", "联系我们", "下一页", "上一页", "目录"],
    "fr": ["Se connecter", "Tableau de bord", "Facturation", "Documentation", "Tarifs", "Assistance"],
    "de": ["Anmelden", "Übersicht", "Abrechnung", "Dokumentation", "Preise", "Support"],
    "ja": ["サインイン", "ダッシュボード", "請求", "ドキュメント", "料金", "サポート"],
    "ru": ["Войти", "Панель управления", "Оплата", "Документация", "Цены", "Поддержка"],
}
_FOOTERS = {
    "en": [
        "© 2026 Acme Inc. All rights reserved.",
        "Note: the free tier is limited to one region and 5 GB of Cloud Storage.",
        "Questions? Open the Acme Console and choose Support, or write to support@example.com.",
        "This page was last updated for version 4.2. Earlier versions are documented in the archive.",
    ],
    "zh": ["© 2026 Acme 公司 版权所有。", "注意：免费套餐仅限一个地域使用。"],
    "fr": ["© 2026 Acme Inc. Tous droits réservés.", "Remarque : l'offre gratuite est limitée à une région."],
    "de": [
        "© 2026 Acme Inc. Alle Rechte vorbehalten.",
        "Hinweis: Das kostenlose Kontingent gilt für eine Region.",
    ],
    "ja": ["© 2026 Acme Inc. All rights reserved.", "注意：無料枠は1つのリージョンに限られます。"],
    "ru": ["© 2026 Acme Inc. Все права защищены.", "Примечание: бесплатный тариф действует в одном регионе."],
}


class Writer:
    """Random text in one language, with the inline markup of the target format."""

    def __init__(self, rng: random.Random, lang: str, markup: str) -> None:
        self.rng, self.lang, self.markup = rng, lang, markup

    def words(self, n: int) -> str:
        rng = self.rng
        if self.lang == "zh":
            return "".join(rng.choice(_ZH) for _ in range(n * 2))
        if self.lang == "ja":
            return "".join(rng.choice(_JA) for _ in range(n * 2))
        pool = {"en": _EN, "fr": _FR, "de": _DE, "ru": _RU}[self.lang]
        out = [rng.choice(pool) for _ in range(n)]
        if self.lang == "en" and rng.random() < 0.3:  # glossary terms, as documentation has them
            out.insert(rng.randrange(len(out) + 1), rng.choice(_EN_TERMS))
        if rng.random() < 0.15:
            out.insert(rng.randrange(len(out) + 1), str(rng.randint(2, 9999)))
        return " ".join(out)

    def inline(self, text: str) -> str:
        """Wrap one word run in bold, code or a link (about one sentence in five)."""
        rng = self.rng
        if self.markup == "txt" or rng.random() > 0.2 or " " not in text:
            return text
        head, _, tail = text.partition(" ")
        kind = rng.choice(("bold", "code", "link"))
        if self.markup == "md":
            marked = {
                "bold": f"**{head}**",
                "code": f"`{head}`",
                "link": f"[{head}](https://example.com/{head.lower()})",
            }
        else:
            marked = {
                "bold": f"<strong>{head}</strong>",
                "code": f"<code>{head}</code>",
                "link": f'<a href="https://example.com/{head.lower()}">{head}</a>',
            }
        return marked[kind] + " " + tail

    def sentence(self) -> str:
        end = "。" if self.lang in ("zh", "ja") else "."
        text = self.words(self.rng.randint(4, 14))
        if self.lang not in ("zh", "ja"):
            text = text[0].upper() + text[1:]
        return self.inline(text) + end

    def paragraph(self) -> str:
        # Documentation repeats itself ("Before you begin", prerequisites, warnings): one
        # paragraph in four comes from a small shared pool per language.
        if self.rng.random() < 0.25:
            return self.rng.choice(_shared(self.lang, self.markup))
        return self.fresh_paragraph()

    def fresh_paragraph(self) -> str:
        glue = "" if self.lang in ("zh", "ja") else " "
        return glue.join(self.sentence() for _ in range(self.rng.randint(1, 3)))

    def heading(self) -> str:
        text = self.words(self.rng.randint(2, 6))
        return text[0].upper() + text[1:] if self.lang not in ("zh", "ja") else text


_POOLS: dict[tuple[str, str], list[str]] = {}


def _shared(lang: str, markup: str) -> list[str]:
    pool = _POOLS.get((lang, markup))
    if pool is None:
        writer = Writer(random.Random(f"{lang}-{markup}"), lang, markup)
        pool = _POOLS[(lang, markup)] = [writer.fresh_paragraph() for _ in range(40)]
    return pool


def _lang(rng: random.Random) -> str:
    return rng.choices([code for code, _ in _LANGS], weights=[w for _, w in _LANGS])[0]


def markdown_doc(rng: random.Random) -> str:
    lang = _lang(rng)
    w = Writer(rng, lang, "md")
    parts = [f"# {w.heading()}", w.paragraph()]
    for _ in range(rng.randint(3, 7)):
        parts.append(f"## {w.heading()}")
        for _ in range(rng.randint(1, 3)):
            parts.append(w.paragraph())
        if rng.random() < 0.6:
            parts.append(
                "\n".join(f"- {w.inline(w.words(rng.randint(3, 12)))}" for _ in range(rng.randint(2, 6)))
            )
        if rng.random() < 0.2:
            parts.append("```bash\nacme storage create --region eu-west-1 my-bucket\n```")
    parts.append(rng.choice(_FOOTERS[lang]))
    parts.append(" · ".join(rng.sample(_LABELS[lang], 3)))
    return "\n\n".join(parts) + "\n"


def html_doc(rng: random.Random) -> str:
    lang = _lang(rng)
    w = Writer(rng, lang, "html")
    nav = "".join(f'<li><a href="/{i}">{label}</a></li>' for i, label in enumerate(_LABELS[lang][:6]))
    body = [f"<h1>{w.heading()}</h1>", f"<p>{w.paragraph()}</p>"]
    for _ in range(rng.randint(2, 6)):
        body.append(f"<h2>{w.heading()}</h2>")
        for _ in range(rng.randint(1, 3)):
            body.append(f"<p>{w.paragraph()}</p>")
        if rng.random() < 0.5:
            items = "".join(
                f"<li>{w.inline(w.words(rng.randint(3, 12)))}</li>" for _ in range(rng.randint(2, 5))
            )
            body.append(f"<ul>{items}</ul>")
    footer = f"<footer><p>{rng.choice(_FOOTERS[lang])}</p></footer>"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{w.heading()}</title>\n</head>\n<body>\n<nav><ul>{nav}</ul></nav>\n<main>\n"
        + "\n".join(body)
        + f"\n</main>\n{footer}\n</body>\n</html>\n"
    )


def text_doc(rng: random.Random) -> str:
    lang = _lang(rng)
    w = Writer(rng, lang, "txt")
    parts = [w.heading()] + [w.paragraph() for _ in range(rng.randint(3, 10))]
    parts.append(rng.choice(_FOOTERS[lang]))
    return "\n\n".join(parts) + "\n"


def write_workload(out_dir: Path, docs: int, *, seed: int = 0) -> list[Path]:
    """`docs` documents (about 60% Markdown, 25% HTML, 15% text) under `out_dir`."""
    rng = random.Random(seed)
    paths = []
    for i in range(docs):
        kind = rng.choices(("md", "html", "txt"), weights=(60, 25, 15))[0]
        text = {"md": markdown_doc, "html": html_doc, "txt": text_doc}[kind](rng)
        path = out_dir / f"section-{i % 10}" / f"doc-{i:05d}.{kind}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paths = write_workload(args.out_dir, args.docs, seed=args.seed)
    print(f"{len(paths)} documents under {args.out_dir}")


if __name__ == "__main__":
    main()
