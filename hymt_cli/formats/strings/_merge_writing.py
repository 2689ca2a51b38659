"""A merge plan carried out: the target's text with the plan's fates applied (merge.py).

A member is the same member in source and target by its path (outline.py). Everything of the
target that no fate touches keeps its bytes: new members are copied from the source (their
values translated) right after the member that precedes them in the source, indented as the
target indents; a value is rewritten with the target's own writer (its quoting); removed
members go with their separators (the format's `Syntax`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence

from .merge import MergePlan, Rendered
from .outline import Container, Copied, KeyPath, Leaf, Member, Retiring, Splice, indentation


def merged(
    plan: MergePlan,
    source_text: str,
    rendered: Rendered,
    failed: Iterable[KeyPath] = (),
    points: Mapping[KeyPath, str] | None = None,
) -> str:
    """The target's text with the plan carried out. `rendered`: the raw text each source
    item is written as in this language, by its source span (a value translated, the new
    plural forms inserted at a point, an edit such as ARB's `@@locale`): what a new file
    would hold there. `failed`: paths whose translation is incomplete. `points`: each new
    plural form's own text by its path (several forms share a point: `few`, `many`)."""
    plan.settle()
    rendered = {**rendered, **_restored(plan)}
    target = plan.target_members
    splices: list[Splice] = []
    failed = set(failed)
    items = sorted(rendered.items())
    starts = [span[0] for span, _ in items]
    for leaf in plan.changing:
        fate, there = plan.fates.get(leaf.path), target.get(leaf.path)
        if not isinstance(there, Leaf):
            continue
        if (fate == "updated" and leaf.path not in failed) or fate == "added":
            if there.rewrite is not None:
                copied = _copied(source_text, leaf, rendered, items, starts, points or {})
                splices.append(Splice(there.start, there.end, there.rewrite(copied.text)))
            else:
                splices.append(_rewritten(there, leaf, source_text, rendered))
    splices.extend(_insertions(plan, source_text, rendered, target, points or {}))
    splices.extend(_removals(plan, target))
    syntax = plan.target.syntax
    if isinstance(syntax, Retiring):
        retired = plan.target.retired
        revived = [
            retired[leaf.path]
            for leaf in plan.changing
            if leaf.path in retired
            and leaf.path not in target
            and plan.fates.get(leaf.path) in ("added", "restored")
        ]
        if plan.removed or revived:
            splices.extend(syntax.retire(plan.target_text, plan.removed, revived))
    return _applied(plan.target_text, splices)


def _restored(plan: MergePlan) -> dict[tuple[int, int], tuple[str | None, str]]:
    out: dict[tuple[int, int], tuple[str | None, str]] = {}
    for leaf in plan.changing:
        if plan.fates.get(leaf.path) == "restored" and leaf.write is not None:
            back = plan.restoring(leaf)
            assert back is not None
            out[(leaf.value_start, leaf.value_end)] = (back.text, leaf.write(back.text))
    return out


def _insertions(
    plan: MergePlan,
    source_text: str,
    rendered: Rendered,
    target: Mapping[KeyPath, Member],
    points: Mapping[KeyPath, str],
) -> list[Splice]:
    syntax = plan.target.syntax
    by_path: dict[KeyPath, Member] = {m.path: m for m in plan.source.members}
    for leaf in plan.leaves:
        by_path.setdefault(leaf.path, leaf)
    roots: dict[KeyPath, Member] = {}
    for leaf in plan.changing:
        if plan.fates.get(leaf.path) not in ("added", "restored") or leaf.path in target:
            continue
        cut = next(i for i in range(1, len(leaf.path) + 1) if leaf.path[:i] not in target)
        roots.setdefault(leaf.path[:cut], by_path[leaf.path[:cut]])
    if not roots:
        return []
    parents = {root[:-1] for root in roots}
    children = [m for m in by_path.values() if m.path and m.path[:-1] in parents]
    order: dict[KeyPath, list[KeyPath]] = {}  # parent -> its children in the source, source order
    for member in sorted(children, key=lambda m: (m.start, len(m.path))):
        order.setdefault(member.path[:-1], []).append(member.path)
    after: dict[KeyPath, list[Copied]] = {}
    before: dict[KeyPath, list[Copied]] = {}
    into: dict[KeyPath, list[Copied]] = {}
    items = sorted(rendered.items())
    starts = [span[0] for span, _ in items]
    described = {key: path for path, key in plan.source.companions.items()}
    keeps_companions = bool(plan.target.companions)
    for root, member in sorted(roots.items(), key=lambda item: (item[1].start, len(item[0]))):
        copied = [_copied(source_text, member, rendered, items, starts, points)]
        companion = described.get(root)
        if keeps_companions and companion is not None and companion not in target and companion in by_path:
            copied.append(_copied(source_text, by_path[companion], rendered, items, starts, points))
        siblings = order.get(root[:-1], [root])
        at = siblings.index(root)
        previous = next((p for p in reversed(siblings[:at]) if p in target), None)
        following = next((p for p in siblings[at + 1 :] if p in target), None)
        if previous is not None:
            after.setdefault(previous, []).extend(copied)
        elif following is not None:
            before.setdefault(following, []).extend(copied)
        else:
            into.setdefault(root[:-1], []).extend(copied)
    text = plan.target_text
    splices = [syntax.insert_after(text, target[p], m) for p, m in after.items()]
    splices += [syntax.insert_before(text, target[p], m) for p, m in before.items()]
    for parent, members in into.items():
        container = target.get(parent)
        if isinstance(container, Container):
            splices.append(syntax.insert_into(text, container, members))
    return splices


def _removals(plan: MergePlan, target: Mapping[KeyPath, Member]) -> list[Splice]:
    if not plan.removed:
        return []
    gone = {m.path for m in plan.removed}
    children: dict[KeyPath, list[Member]] = {}
    for node in plan.target.members:
        if node.path and node.path[:-1] in target:
            children.setdefault(node.path[:-1], []).append(node)
    splices: list[Splice] = []
    for parent, members in children.items():
        run: list[Member] = []
        kept_before: Member | None = None
        ends: list[Member | None] = [*members, None]
        for member in ends:
            if member is not None and member.path in gone:
                run.append(member)
                continue
            if run:
                container = target[parent]
                assert isinstance(container, Container)
                splices.append(
                    plan.target.syntax.remove(plan.target_text, run, kept_before, member, container)
                )
                run = []
            kept_before = member
    return splices


def _rewritten(there: Leaf, leaf: Leaf, source_text: str, rendered: Rendered) -> Splice:
    """The target's value replaced by the source's, translated: written by the target's own
    writer where it has one (its quoting), else as the source writes it."""
    new = rendered.get((leaf.value_start, leaf.value_end))
    if new is None:  # nothing to translate in it (a number, a URL): the source's value
        return Splice(there.value_start, there.value_end, source_text[leaf.value_start : leaf.value_end])
    value, raw = new
    if value is not None and there.write is not None:
        raw = there.write(value)
    return Splice(there.value_start, there.value_end, raw)


def _copied(
    source_text: str,
    member: Member,
    rendered: Rendered,
    items: Sequence[tuple[tuple[int, int], tuple[str | None, str]]],
    starts: Sequence[int],
    points: Mapping[KeyPath, str],
) -> Copied:
    """A source member as it goes into the target: its text with the items inside it rendered
    (`items`: `rendered` sorted by span, `starts` their starts)."""
    if isinstance(member, Leaf) and member.start == member.end:  # a new plural form: its own text
        own = points.get(member.path)
        if own is None:
            own = rendered.get((member.value_start, member.value_end), (None, ""))[1]
        return Copied(own, "", point=True)
    start, end = member.start, member.end
    pieces: list[str] = []
    pos = start
    for (s, e), (_, raw) in items[bisect_left(starts, start) : bisect_right(starts, end)]:
        # A point at the member's start is its previous sibling's; one at its end is its own
        # where the member holds it (a plural mapping that YAML ends with its new forms).
        if s < pos or e > end or (s == e and (s == start or (s == end and isinstance(member, Leaf)))):
            continue
        pieces.append(source_text[pos:s])
        pieces.append(raw)
        pos = e
    pieces.append(source_text[pos:end])
    return Copied(
        "".join(pieces), indentation(source_text, start), blank_before=_blank_before(source_text, start)
    )


def _blank_before(text: str, pos: int) -> bool:
    """A blank line right before `pos` (the white space there holds two line breaks)."""
    start = pos
    while start > 0 and text[start - 1] in " \t\r\n":
        start -= 1
    return start > 0 and text.count("\n", start, pos) > 1


def _applied(text: str, splices: list[Splice]) -> str:
    """`text` with non-overlapping splices (an insertion at a point goes before a removal there)."""
    out: list[str] = []
    pos = 0
    for splice in sorted(splices, key=lambda s: (s.start, s.end)):
        if splice.start < pos:
            raise ValueError(f"overlapping changes at offset {splice.start}")
        out.append(text[pos : splice.start])
        out.append(splice.text)
        pos = splice.end
    out.append(text[pos:])
    return "".join(out)
