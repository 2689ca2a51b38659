"""Angular's ICU units whose branches hold inline codes (`<x id="INTERPOLATION"
equiv-text="{{minutes}}"/>`): only the branch texts go to the model, the codes as tags; the
argument, `plural`/`select` and the selectors stay, and the target is still that ICU message
(with the target's plural categories). Such units used to be sent whole as text: the model could
translate `VAR_PLURAL`, `plural` and `other`, and Angular could not read the translation."""

from __future__ import annotations

import re
import xml.parsers.expat

from hymt_cli.formats.strings import parse_message
from hymt_cli.formats.xliff.format import XliffFormat

X = '<x id="INTERPOLATION" equiv-text="{{minutes}}"/>'
B = '<x id="START_BOLD_TEXT" ctype="x-b" equiv-text="&lt;b&gt;"/>'
SOURCE = f"""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en-US" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="ago" datatype="html">
        <source>{{VAR_PLURAL, plural, =0 {{just now}} other {{{X} minutes ago}} }}</source>
      </trans-unit>
      <trans-unit id="who" datatype="html">
        <source>{{VAR_SELECT, select, male {{a {B}bold man &amp; co}} other {{someone}} }}</source>
      </trans-unit>
    </body>
  </file>
</xliff>
"""


def _targets(out: str) -> list[str]:
    return re.findall(r"<target[^>]*>(.*?)</target>", out)


def test_icu_branches_with_inline_codes_send_only_their_texts() -> None:
    doc = XliffFormat().parse(SOURCE)
    sent = [s.text for s in doc.segments]
    assert "just now" in sent and "<s1/> minutes ago" in sent and "a <s1/>bold man & co" in sent
    for text in sent:
        assert not re.search(r"VAR_|plural|select|other|hymt", text), text
    answers = {s.id: s.text.upper().replace("<S1/>", "<s1/>") + " <&> '" for s in doc.segments}
    out = doc.reassemble(answers, target_language="ru")
    xml.parsers.expat.ParserCreate().Parse(out, True)  # well-formed
    ago, who = _targets(out)
    assert ago.startswith("{VAR_PLURAL, plural, =0 {JUST NOW &lt;&amp;&gt; ''} ")  # an ICU apostrophe doubled
    assert ago.count(X) == 4  # one, few, many (Russian) and other, each with the code as written
    assert who.startswith(f"{{VAR_SELECT, select, male {{A {B}BOLD MAN &amp; CO &lt;&amp;&gt; ''}}")
    for target in (ago, who):
        parse_message(target.replace(X, "").replace(B, ""))  # still ICU
