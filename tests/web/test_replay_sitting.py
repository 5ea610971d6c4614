"""The deals of one sitting (a game that loops under the family table is gathered and dealt
again) link to each other's replays both ways: the last deal's replay back to the first, and the
first deal's forward to the deal dealt after it."""

from __future__ import annotations

from starlette.testclient import TestClient

from beggar.records import NEVER_ENDING
from beggar.web.app import create_app
from beggar.web.settings import ServerSettings
from helpers import Socket, create


def test_the_first_deal_s_replay_links_forward_to_the_deal_dealt_after_it() -> None:
    with TestClient(create_app(ServerSettings(rate=1000, burst=1000, db=":memory:"))) as client:
        with client.websocket_connect("/ws") as ws:
            me = Socket(ws)
            rules = "family-table:lead=first-hand"
            create(me, mode="watch", rules=rules, deal=NEVER_ENDING.deal, pace="instant")
            end = me.until("state", lambda s: s["reshuffles"] >= 1 and s["over"] is not None, limit=100_000)
        first, last = end["over"]["dealt_again"][0]["replay"], end["over"]["replay"]
        looped = client.get(f"/api/replay/{first}").json()
        assert looped["over"]["status"] == "loop"
        assert looped["dealt_next"] == last
        assert client.get(f"/api/replay/{last}").json()["dealt_next"] is None
