"""A write whose object sits between its verb and a particle ("flag customer {id} as a VIP") puts
the particle first where the object is a long description: in the ninth round's draw "flag the
customer of the survey ... among the customers at that organisation as a VIP" read as if the
organisation were to be the VIP. A short object keeps the phrase as written."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.sample.phrasing import _heavy_last
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]
LONG = 'the customer of the satisfaction survey with ticket "Webhook deliveries failing" among the surveys credited to that agent'


def test_a_heavy_object_goes_after_the_particle():
    assert _heavy_last(f"flag {LONG} as a VIP", "flag customer {id} as a VIP") == f"flag as a VIP {LONG}"
    assert _heavy_last(f"put {LONG} on leave", "put {id} on leave") == f"put on leave {LONG}"


def test_a_short_object_and_other_tails_keep_their_place():
    assert _heavy_last("put that colleague on leave", "put {id} on leave") == "put that colleague on leave"
    # a tail that refers back to the object, or goes on with a clause, or changes the verb
    assert _heavy_last(f"remove {LONG} from its pay run", "remove payslip {id} from its pay run").startswith(f"remove {LONG}")
    assert _heavy_last(f"delete {LONG} and its transcript", "delete chat {id} and its transcript").startswith(f"delete {LONG}")
    assert _heavy_last(f"move {LONG} on to the next stage", "move application {id} on to the next stage").startswith(f"move {LONG}")
    assert _heavy_last(f"close {LONG} with a replacement", "close return {id} with a replacement").startswith(f"close {LONG}")


def test_the_played_draw_flags_as_a_vip_before_its_long_description():
    support = load_sampler(str(ROOT / "worlds" / "support.world"))
    # a draw like the ninth round's (then seed 9191, attempt 0; since stop 61's update draws,
    # seed 9229, attempt 1): it moves when the walks change
    text = support.task(9229, 1, 16)["instruction"]
    assert "flag as a VIP the customer of " in text
    assert "as a VIP." not in text and "as a VIP," not in text
