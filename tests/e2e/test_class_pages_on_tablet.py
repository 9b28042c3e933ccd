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


def test_the_start_form_opens_my_own_variant_and_shows_every_menu_whole(
    live_server, page, teacher, classroom, pupils
):
    sign_in_teacher(page, live_server.url, teacher)
    page.goto(live_server.url + f"/classes/{classroom.pk}/play/")
    dice = page.locator("details.own-variant select, details.own-variant input").first
    assert not dice.is_visible()
    page.locator("input[name=preset][value=custom]").check()
    assert dice.is_visible()
    page.locator("input[name=preset]").first.check()
    assert not dice.is_visible()
    # The longest choice of "Empty seats" and of "Pupils per seat" fits its
    # menu (the arrow takes ~30 px), in both languages.
    for language in ("EN", "FR"):
        page.get_by_role("button", name=language, exact=True).click()
        for name in ("bot_level", "team_size"):
            room, needed = page.locator(f"select[name={name}]").evaluate(WIDEST_CHOICE)
            assert needed <= room, f"{language} {name} needs {needed} px, has {room}"


WIDEST_CHOICE = """select => {
    const probe = document.createElement("span");
    probe.style.font = getComputedStyle(select).font;
    probe.style.position = "absolute";
    probe.style.whiteSpace = "nowrap";
    document.body.append(probe);
    let widest = 0;
    for (const option of select.options) {
        probe.textContent = option.text;
        widest = Math.max(widest, probe.getBoundingClientRect().width);
    }
    probe.remove();
    const style = getComputedStyle(select);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return [select.clientWidth - padding - 30, widest];
}"""
