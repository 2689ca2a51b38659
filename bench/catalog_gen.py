"""A realistic, deterministic product catalog in parquet (Shopify-export-like), any size.

Products with several variants on consecutive rows (title and HTML body repeated, as after
a join), colors/sizes/vendors from small sets, nulls, empty strings, a dictionary-encoded
column, numbers, timestamps and schema key/value metadata. Generated batch by batch, so a
2-million-row file needs no more memory than a small one.

    python bench/catalog_gen.py catalog.parquet --rows 2000000
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ADJECTIVES = (
    "Classic",
    "Organic",
    "Slim",
    "Vintage",
    "Ultra-light",
    "Waterproof",
    "Cozy",
    "Premium",
    "Handmade",
    "Recycled",
    "Everyday",
    "Modern",
    "Rustic",
    "Sporty",
    "Elegant",
    "Compact",
)
NOUNS = (
    "T-Shirt",
    "Hoodie",
    "Backpack",
    "Water Bottle",
    "Desk Lamp",
    "Sneakers",
    "Scarf",
    "Notebook",
    "Coffee Mug",
    "Yoga Mat",
    "Wallet",
    "Jacket",
    "Headphones",
    "Candle",
    "Plant Pot",
    "Sunglasses",
)
MATERIALS = (
    "organic cotton",
    "recycled polyester",
    "full-grain leather",
    "stainless steel",
    "bamboo",
    "merino wool",
    "ceramic",
    "oak wood",
    "linen",
    "silicone",
)
FEATURES = (
    "Machine washable at 30°C",
    "Ships in recyclable packaging",
    "Two-year warranty",
    "Adjustable straps for a perfect fit",
    "Dishwasher safe",
    "Fits laptops up to 15 inches",
    "Soft brushed interior",
    "Made in Portugal",
    "Vegan and cruelty-free",
    "Lightweight & durable",
    "Limited edition colors",
    "Hand-finished by local artisans",
)
COLORS = ("Black", "White", "Navy Blue", "Forest Green", "Burgundy", "Sand", "Charcoal Grey", "Sky Blue")
SIZES = ("XS", "S", "M", "L", "XL", "One size", "38", "40", "42")
VENDORS = ("Northwind", "Acme Goods", "Blue Fjord", "Maison Lumière", "Kiwi & Co")
CATEGORIES = (
    "Apparel > Tops",
    "Apparel > Outerwear",
    "Bags & Accessories",
    "Home > Kitchen",
    "Home > Decor",
    "Sports > Fitness",
    "Electronics > Audio",
)

SCHEMA = pa.schema(
    [
        pa.field("handle", pa.string(), nullable=False),
        pa.field("title", pa.string()),
        pa.field("body_html", pa.string()),
        pa.field("vendor", pa.string()),
        pa.field("category", pa.dictionary(pa.int32(), pa.string())),
        pa.field("tags", pa.string()),
        pa.field("option1_value", pa.string(), metadata={b"option": b"Color"}),
        pa.field("option2_value", pa.string(), metadata={b"option": b"Size"}),
        pa.field("sku", pa.string()),
        pa.field("price", pa.float64()),
        pa.field("compare_at_price", pa.float64()),
        pa.field("inventory", pa.int64()),
        pa.field("published", pa.bool_()),
        pa.field("updated_at", pa.timestamp("ms", tz="UTC")),
        pa.field("seo_description", pa.large_string()),
    ],
    metadata={b"source": b"shopify-export", b"generator": b"hymt bench/catalog_gen.py", b"currency": b"EUR"},
)


def _product(rng: random.Random, number: int) -> dict:
    adjective, noun = rng.choice(ADJECTIVES), rng.choice(NOUNS)
    material = rng.choice(MATERIALS)
    features = rng.sample(FEATURES, rng.randint(2, 4))
    title = f"{adjective} {noun} – {material.title()} #{number}"
    body = (
        f"<p>Meet the <strong>{adjective.lower()} {noun.lower()}</strong> made of {material}. "
        f"Designed for everyday use &amp; built to last.</p>\n"
        f"<ul>{''.join(f'<li>{f}</li>' for f in features)}</ul>\n"
        f"<p>Care: <em>see label</em>. Item {number}.</p>"
    )
    return {
        "handle": f"{adjective}-{noun}-{number}".lower().replace(" ", "-"),
        "title": title,
        "body_html": body,
        "vendor": rng.choice(VENDORS),
        "category": rng.randrange(len(CATEGORIES)),
        "tags": ", ".join(rng.sample(("new", "sale", "eco", "gift", "bestseller", "summer"), 2)),
        "price": round(rng.uniform(5, 250), 2),
        "seo": rng.choice(("", None, f"Buy the {adjective.lower()} {noun.lower()} online.")),
    }


def catalog_batches(rows: int, *, seed: int = 0, batch_rows: int = 65_536) -> Iterator[pa.RecordBatch]:
    """`rows` rows of catalog, `batch_rows` at a time; same seed, same bytes."""
    rng = random.Random(seed)
    product, variants_left, number = None, 0, 0
    base_ms = 1_767_225_600_000  # 2026-01-01
    done = 0
    while done < rows:
        n = min(batch_rows, rows - done)
        cols: dict[str, list] = {f.name: [] for f in SCHEMA}
        for _ in range(n):
            if variants_left == 0:
                number += 1
                product, variants_left = _product(rng, number), rng.randint(1, 12)
            variants_left -= 1
            cols["handle"].append(product["handle"])
            cols["title"].append(product["title"])
            cols["body_html"].append(product["body_html"])
            cols["vendor"].append(product["vendor"])
            cols["category"].append(product["category"])
            cols["tags"].append(product["tags"])
            cols["option1_value"].append(rng.choice(COLORS))
            cols["option2_value"].append(rng.choice(SIZES) if rng.random() > 0.1 else None)
            cols["sku"].append(f"SKU-{number:07d}-{variants_left:02d}")
            cols["price"].append(product["price"])
            cols["compare_at_price"].append(round(product["price"] * 1.2, 2) if rng.random() < 0.3 else None)
            cols["inventory"].append(rng.randint(0, 500))
            cols["published"].append(rng.random() > 0.05)
            cols["updated_at"].append(base_ms + rng.randrange(86_400_000 * 30))
            cols["seo_description"].append(product["seo"])
        arrays = []
        for field in SCHEMA:
            if field.name == "category":
                arrays.append(
                    pa.DictionaryArray.from_arrays(
                        pa.array(cols["category"], pa.int32()), pa.array(CATEGORIES)
                    )
                )
            else:
                arrays.append(pa.array(cols[field.name], type=field.type))
        yield pa.RecordBatch.from_arrays(arrays, schema=SCHEMA)
        done += n


def write_catalog(path: Path, rows: int, *, seed: int = 0, row_group_rows: int = 65_536) -> Path:
    with pq.ParquetWriter(path, SCHEMA, compression="zstd") as writer:
        for batch in catalog_batches(rows, seed=seed, batch_rows=row_group_rows):
            writer.write_batch(batch)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    write_catalog(args.path, args.rows, seed=args.seed)
    print(f"{args.path}: {args.rows:,} rows")


if __name__ == "__main__":
    main()
