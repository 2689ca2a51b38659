"""Home Assistant's strings.json refers to shared strings with `[%key:common::config_flow::data::host%]`
(its build replaces each reference with that string). A reference is a placeholder: never sent
as text, so a value that is only a reference is not sent at all, and one inside a sentence
reaches the model as a tag it cannot change. They used to be sent as words: the pseudo engine
turned `[%key:common::...%]` into `[%ķéý:çóɱɱóñ::...%]`, a key Home Assistant cannot find."""

from __future__ import annotations

import json
import re

from hymt_cli.formats.json_strings.format import JsonStringsFormat

# from homeassistant/components/hue/strings.json (Apache-2.0), and one reference in a sentence
STRINGS = {
    "config": {
        "abort": {
            "all_configured": "All Philips Hue bridges are already configured",
            "already_configured": "[%key:common::config_flow::abort::already_configured_device%]",
        },
        "step": {
            "manual": {
                "data_description": {
                    "host": "[%key:component::hue::config::step::init::data_description::host%]"
                },
                "description": "Press the button. [%key:common::config_flow::description::confirm_setup%]"
                " Then wait for {host}.",
            }
        },
    },
    "trigger_type": {"initial_press": '"{subtype}" pressed initially'},
}
REFERENCE = re.compile(r"\[%key:[^%\]]*%\]")


def _upper(text: str) -> str:
    """A translation: the words upper-cased, the tags as they were sent."""
    return re.sub(r"[^<>]+(?=<|$)", lambda m: m.group(0).upper(), text)


def test_references_are_never_sent_and_stay_as_they_are() -> None:
    text = json.dumps(STRINGS, indent=2)
    doc = JsonStringsFormat().parse(text)
    sent = [s.text for s in doc.segments]
    assert not any("key:" in s or "::" in s for s in sent), sent
    assert len(sent) == 3  # the sentences, not the references alone
    out = doc.reassemble({s.id: _upper(s.text) for s in doc.segments}, target_language="de")
    assert REFERENCE.findall(out) == REFERENCE.findall(text)
    described = json.loads(out)["config"]["step"]["manual"]["description"]
    assert described.startswith("PRESS THE BUTTON. [%key:common::config_flow::description::confirm_setup%]")


def test_a_reference_the_model_writes_is_not_live() -> None:
    """Where a value holds references, one the model invents must not become one."""
    text = json.dumps({"d": "Press the button. [%key:common::config_flow::description::confirm_setup%]"})
    doc = JsonStringsFormat().parse(text)
    [segment] = doc.segments
    forged = segment.text + " [%key:common::config_flow::abort::reauth_successful%]"
    out = json.loads(doc.reassemble({segment.id: forged}, target_language="de"))["d"]
    assert len(REFERENCE.findall(out)) == 1, out
