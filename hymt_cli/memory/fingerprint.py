"""What decides a translation besides its text and languages: the model (with its revision or its
folder's digest), the prompt template, the glossary, the sampling, and the locales a [locales]
table sends to another model language than CLDR's (zh-HK=yue). Its digest keys the memory's
model entries and is the provenance the output manifests record (`--check` compares it)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """Everything besides languages and text that decides what a translation looks like."""

    model: str
    model_digest: str
    template_version: str
    glossary_digest: str
    sampling: str
    locales: str = ""  # `zh-HK=yue`: targets written by another model language than CLDR's

    @property
    def key(self) -> str:
        return _digest(json.dumps(self.describe(), sort_keys=True))[:32]

    def describe(self) -> dict[str, str]:
        described = {
            "model": self.model,
            "model_digest": self.model_digest,
            "template_version": self.template_version,
            "glossary_digest": self.glossary_digest,
            "sampling": self.sampling,
        }
        if self.locales:  # (none: the keys entries had before locales existed)
            described["locales"] = self.locales
        return described


def model_digest(model: str, revision: str | None) -> str:
    """A local model folder: digest of its config and weight files (name, size, mtime);
    a hub id: its revision (or "default")."""
    path = Path(model)
    if not path.is_dir():
        return f"rev:{revision or 'default'}"
    h = hashlib.sha256()
    for name in ("config.json", "generation_config.json", "tokenizer_config.json"):
        file = path / name
        if file.is_file():
            h.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    for file in sorted(path.iterdir()):
        if file.suffix in (".safetensors", ".bin", ".gguf", ".pt"):
            st = file.stat()
            h.update(f"{file.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return "path:" + h.hexdigest()[:24]


def build_fingerprint(
    *,
    engine: str,
    model: str | None,
    revision: str | None,
    sampling: object,
    template_version: str,
    glossary_digest: str = "",
    model_free: bool = False,
    locales: str = "",
) -> Fingerprint:
    """The context of a run. Model-free engines (identity, pseudo) are their own "model"."""
    if model_free or model is None:
        return Fingerprint(f"engine:{engine}", "", template_version, glossary_digest, "", locales)
    fields: tuple[str, ...] = tuple(getattr(sampling, "__slots__", ()))
    described = (
        json.dumps({f: getattr(sampling, f) for f in fields}, sort_keys=True) if fields else repr(sampling)
    )
    return Fingerprint(
        model, model_digest(model, revision), template_version, glossary_digest, described, locales
    )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
