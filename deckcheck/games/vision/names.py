"""VISION's copy-limit name: the ``vision-name`` copy key a format's ``[copies]`` may use
(registered through the spec's ``copy_keys``)."""

from __future__ import annotations

import re

from deckcheck.sdk import nfkc

_FU_ICHI = re.compile(r"^符ノ壱\s*[“\"「『”](?P<base>.+?)[”\"」』“]\s*$")


def vision_copy_name(name: str) -> str:
    """Name that counts toward VISION's copy limit: 符ノ壱“X” counts as X (a fan source, wikiwiki
    rueren, recorded in formats/vision-standard.toml); 符ノ弐 cards count alone."""
    text = nfkc(name)
    match = _FU_ICHI.match(text)
    return match.group("base") if match else text
