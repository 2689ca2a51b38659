"""The GPU bench's mixed job: real documents plus a catalog of unique product descriptions.

Shaped after the job issue 20 was measured on ("real Markdown and HTML documents plus 12.5k
real product descriptions"), from what this repository has:

- every sample document of `samples/` (Markdown, HTML, text: real files of real projects);
- generated documentation (`workload.py`: Markdown, HTML, text, several source languages,
  shared boilerplate, inline markup, glossary terms) for volume;
- `products.parquet`: one row per product, all different, an HTML `description` column as
  shops write them: mostly one paragraph, some with a bullet list of features (the bullets
  repeat across products, as they do) or a second paragraph. Paragraph lengths are
  log-normal (median ~17 words, a long tail cut at 300 words): most requests are short, a
  few are long, as in real catalogs, and the long ones decide how the job ends.

Deterministic for a seed.

    python bench/mixed_job.py OUT_DIR --docs 60 --products 12500
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from workload import write_workload

REPO = Path(__file__).resolve().parents[1]
SAMPLE_SUFFIXES = (".md", ".html", ".txt")
DESCRIPTION_COLUMN = "description"
MEDIAN_WORDS = 17
SIGMA = 0.75
MAX_WORDS = 300

_ADJ = (
    "lightweight",
    "durable",
    "soft",
    "breathable",
    "water-resistant",
    "compact",
    "versatile",
    "sturdy",
    "elegant",
    "minimalist",
    "ergonomic",
    "insulated",
    "non-slip",
    "adjustable",
    "handcrafted",
    "timeless",
    "machine-washable",
    "eco-friendly",
    "foldable",
    "cozy",
    "premium",
    "reinforced",
    "quick-drying",
)
_NOUN = (
    "backpack",
    "rain jacket",
    "water bottle",
    "desk lamp",
    "running shoe",
    "wool scarf",
    "notebook",
    "coffee grinder",
    "yoga mat",
    "leather wallet",
    "travel mug",
    "duvet cover",
    "garden hose",
    "camping chair",
    "phone case",
    "cutting board",
    "bluetooth speaker",
    "kids' raincoat",
    "planter",
)
_MATERIAL = (
    "organic cotton",
    "recycled polyester",
    "full-grain leather",
    "brushed stainless steel",
    "bamboo",
    "merino wool",
    "stoneware ceramic",
    "solid oak",
    "washed linen",
    "food-grade silicone",
    "aluminium",
)
_USE = (
    "daily commutes",
    "weekend hikes",
    "long flights",
    "the home office",
    "rainy city days",
    "the gym",
    "camping trips",
    "busy mornings",
    "dinner parties",
    "the first day of school",
    "open-plan offices",
)
_BENEFIT = (
    "keeps its shape wash after wash",
    "stays comfortable all day long",
    "packs flat when you travel",
    "cleans up with a damp cloth",
    "resists scratches and stains",
    "feels warm without the bulk",
    "holds everything you need without weighing you down",
    "is built to last for years",
    "adds a quiet touch of style to any room",
    "fits neatly in a drawer when not in use",
)
_SENTENCES = (
    "This {adj} {noun} is made from {material} and {benefit}.",
    "Designed for {use}, it {benefit}.",
    "The {material} exterior {benefit}, while the {adj} lining makes it a pleasure to use.",
    "Whether you are heading out for {use} or staying in, this {noun} {benefit}.",
    "We chose {material} because it is {adj}, {adj2} and easy to care for.",
    "Every {noun} is checked by hand before it leaves our workshop.",
    "Its {adj} design works just as well for {use} as it does for {use2}.",
    "Pair it with the matching pieces of the collection for a complete look.",
    "Measurements: {n} x {m} cm, weight {g} g.",
    "Available in {k} colours; the colour shown is {colour}.",
    "Customers love how it {benefit}, and so do we.",
    "Please note that natural {material} may vary slightly in colour and texture.",
)
_COLOURS = ("charcoal", "sand", "forest green", "navy", "terracotta", "off-white", "sky blue", "burgundy")
_BULLETS = (
    "Machine washable at 30°C",
    "Ships in recyclable packaging",
    "Two-year warranty",
    "Adjustable straps for a perfect fit",
    "Dishwasher safe",
    "Fits laptops up to 15 inches",
    "Soft brushed interior",
    "Made in Portugal",
    "Vegan and cruelty-free",
    "Lightweight &amp; durable",
    "BPA-free",
    "Free returns within 30 days",
    "Hand-finished by local artisans",
    "Keeps drinks cold for 24 hours",
    "Reflective details for visibility at night",
    "Certified by OEKO-TEX®",
    "Includes a storage pouch",
)


def _sentence(rng: random.Random) -> str:
    template = rng.choice(_SENTENCES)
    adj, adj2 = rng.sample(_ADJ, 2)
    use, use2 = rng.sample(_USE, 2)
    return template.format(
        adj=adj,
        adj2=adj2,
        noun=rng.choice(_NOUN),
        material=rng.choice(_MATERIAL),
        benefit=rng.choice(_BENEFIT),
        use=use,
        use2=use2,
        n=rng.randint(10, 90),
        m=rng.randint(5, 60),
        g=rng.randint(80, 2400),
        k=rng.randint(2, 9),
        colour=rng.choice(_COLOURS),
    )


def _paragraph(rng: random.Random) -> str:
    """Sentences up to a log-normal word count; sometimes one word in bold."""
    target = min(MAX_WORDS, max(6, round(math.exp(rng.gauss(math.log(MEDIAN_WORDS), SIGMA)))))
    sentences: list[str] = []
    words = 0
    while words < target:
        sentence = _sentence(rng)
        sentences.append(sentence)
        words += len(sentence.split())
    if rng.random() < 0.3:
        head, _, tail = sentences[0].partition(" ")
        sentences[0] = f"<strong>{head}</strong> {tail}"
    return " ".join(sentences)


def description(rng: random.Random, number: int) -> str:
    """One product's HTML description (each block a segment for hymt's HTML cell format)."""
    body = f"<p>{_paragraph(rng)} Item {number}.</p>"
    roll = rng.random()
    if roll < 0.2:
        bullets = "".join(f"<li>{b}</li>" for b in rng.sample(_BULLETS, rng.randint(2, 5)))
        body += f"\n<ul>{bullets}</ul>"
    elif roll < 0.3:
        body += f"\n<p>{_paragraph(rng)}</p>"
    return body


SCHEMA = pa.schema(
    [
        pa.field("sku", pa.string(), nullable=False),
        pa.field("title", pa.string()),
        pa.field(DESCRIPTION_COLUMN, pa.string()),
        pa.field("price", pa.float64()),
    ],
    metadata={b"generator": b"hymt bench/mixed_job.py"},
)


def write_products(path: Path, products: int, *, seed: int = 0) -> Path:
    """`products` rows, every description different (an item number keeps them apart)."""
    rng = random.Random(seed)
    rows: dict[str, list[object]] = {f.name: [] for f in SCHEMA}
    for number in range(1, products + 1):
        rows["sku"].append(f"P-{number:06d}")
        rows["title"].append(f"{rng.choice(_ADJ).capitalize()} {rng.choice(_NOUN)}")
        rows[DESCRIPTION_COLUMN].append(description(rng, number))
        rows["price"].append(round(rng.uniform(5, 400), 2))
    table = pa.table({f.name: pa.array(rows[f.name], type=f.type) for f in SCHEMA}, schema=SCHEMA)
    pq.write_table(table, path, compression="zstd", row_group_size=8192)
    return path


def copy_samples(out_dir: Path) -> list[Path]:
    """The repository's real sample documents (Markdown, HTML, text), under `samples/`."""
    copied = []
    for path in sorted((REPO / "samples").rglob("*")):
        if path.is_file() and path.suffix in SAMPLE_SUFFIXES:
            target = out_dir / "samples" / path.relative_to(REPO / "samples")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            copied.append(target)
    return copied


def write_mixed_job(out_dir: Path, *, docs: int, products: int, seed: int = 0) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    copy_samples(out_dir)
    if docs:
        write_workload(out_dir / "generated", docs, seed=seed)
    if products:
        write_products(out_dir / "products.parquet", products, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--docs", type=int, default=60)
    parser.add_argument("--products", type=int, default=12_500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    write_mixed_job(args.out_dir, docs=args.docs, products=args.products, seed=args.seed)
    print(f"mixed job under {args.out_dir}")


if __name__ == "__main__":
    main()
