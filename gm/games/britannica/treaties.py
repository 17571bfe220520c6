"""Treaty breaches as Casus Belli (seed, Treaties; Treaties and Casus Belli; European
Tensions Increases).

By mail a party to a ratified treaty lodges the breach: ``breach "Name" by POWER``
(Negotiation, Congress and War phases). The GM's final say on what a violation is
(seed, Treaties: "the GM will make the final decision") is the moderator's: the claim
is carried out as lodged, and a moderator who rules it unfounded undoes it (``SET`` or a
rollback). Carried out: a secret treaty is made public (its text goes to every power;
seed: a signer must make a secret treaty public to use its breach), every other
signatory gets a Casus Belli against the violator, the Index rises 5, the violator loses
2 Victory Points, and the treaty is negated.
"""

from __future__ import annotations

from typing import Any

from gm.games.base import Event
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.tensions import raise_eti
from gm.i18n import msg

State = dict[str, Any]


def breach(d: BritanniaData, state: State, accuser: str, name: str, violator: str) -> list[Event] | str:
    """A breach of treaty ``name`` by ``violator``, lodged by ``accuser`` (seed, Treaties and
    Casus Belli: "all other signatories to the Treaty automatically have a Casus Belli")."""
    treaty = next((t for t in state["treaties"] if t["name"] == name and t["ratified"]
                   and accuser in t["parties"]), None)
    if treaty is None:
        return msg("you are not a party to a ratified treaty of that name")
    if violator == accuser or violator not in treaty["parties"]:
        return msg("only another party to the treaty can break it")
    events: list[Event] = []
    if not treaty["public"]:
        events.append(Event("treaty_made_public", {"name": name, "parties": treaty["parties"],
                                                   "text": treaty["text"], "by": accuser}))
    events.append(Event("treaty_broken", {"name": name, "by": violator, "lodged_by": accuser}))
    for holder in sorted(p for p in treaty["parties"] if p != violator):
        cb = {"holder": holder, "against": violator, "area": "", "cause": "treaty_broken",
              "treaty": name}
        state["casus_belli"].append(cb)
        events.append(Event("casus_belli", cb))
    events += raise_eti(d, state, d.charts["eti"]["treaty_broken"], "treaty broken", [violator])
    lost = d.charts["bonus_vp"]["treaty_broken"]
    who = "germany" if violator == "austria-hungary" else violator
    state["vp"][who] += lost
    events.append(Event("vp_penalty", {"power": who, "vp": lost, "cause": "treaty_broken",
                                       "total": state["vp"][who]}))
    state["treaties"].remove(treaty)
    return events
