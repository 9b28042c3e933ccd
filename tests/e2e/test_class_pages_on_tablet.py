"""The teacher's class pages on a tablet in portrait (768 px)."""

from __future__ import annotations

from tests.e2e.helpers import sign_in_teacher


def test_sign_in_cards_show_each_name_on_one_line_and_the_pictures_in_order(
    live_server, page, teacher, classroom, pupils
):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/cards/")
    cards = page.locator("article.signin-card")
    assert cards.count() == len(pupils)
    for index in range(len(pupils)):
        card = cards.nth(index)
        tops = card.locator(".signin-pictures li").evaluate_all(
            "items => items.map(li => Math.round(li.getBoundingClientRect().top))"
        )
        assert len(tops) == 3 and len(set(tops)) == 1, f"pictures wrap: {tops}"
        assert card.locator(".signin-pictures .order").all_inner_texts() == ["1", "2", "3"]
        assert card.locator(".signin-name strong").evaluate("el => el.getClientRects().length") == 1
