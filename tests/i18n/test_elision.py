"""French elision (docs/architecture.md, "Adding a language"): "the word before a value is
elided where the language does so before the value's vowel (gm/l10n.py ELIDED)", in a
message built in code (``{x}``) as in a template's sentence (``%(x)s``), without the
translator asking; an order's echo is said word for word, as the grammar reads it.

A French seat read "drakkars de Islande", "Siège de Uleåborg", "l'achat de Envoy" (only a
msgstr written ``{x:elide}`` elided)."""

from __future__ import annotations

from gm.i18n import Echo, as_data, from_data, msg, translate
from gm.l10n import ELIDED, elided_literals
from gm.service.render import make_environment


def said(template: str, lang: str = "fr", **values: str) -> str:
    """``template`` as a text template of ``lang`` renders it (``templates/*/*.txt.j2``)."""
    env = make_environment(lang)
    env.autoescape = False
    return env.from_string(template).render(**values)


def test_the_elided_words_are_de_que_le_la() -> None:
    assert ELIDED == {"fr": {"de": "d'", "que": "qu'", "le": "l'", "la": "l'"}}


def test_de_before_a_vowel_is_d_in_a_message_built_in_code() -> None:
    """It said "Vert paie 1 silfr (l'achat de Envoy)"."""
    assert translate(msg("buying {tile}", tile="Envoy"), "fr") == "l'achat d'Envoy"
    assert translate(msg("buying {tile}", tile="Odin"), "fr") == "l'achat d'Odin"
    assert translate(msg("buying {tile}", tile="Thor"), "fr") == "l'achat de Thor"


def test_the_word_before_a_value_is_elided_in_a_templates_sentence() -> None:
    """templates/viking/_events.txt.j2 "%(power)s journeys from %(start)s to %(path)s."."""
    line = '{{ _("%(power)s journeys from %(start)s to %(path)s.", power=p, start=s, path=t) }}'
    assert said(line, p="Rouge", s="Islande", t="Norvège") == "Rouge voyage d'Islande vers Norvège."
    assert said(line, p="Rouge", s="Norvège", t="Islande") == "Rouge voyage de Norvège vers Islande."


def test_ngettext_and_trans_blocks_elide_too() -> None:
    counted = ('{{ ngettext("%(power)s now commands %(num)d %(fleet)s longship.", '
               '"%(power)s now commands the %(num)d %(fleet)s longships.", 2, power="Rouge", '
               'fleet=f) }}')
    assert said(counted, f="Islande") == "Rouge commande désormais les 2 drakkars d'Islande."
    assert said('{% trans name=n %}of {{ name }}{% endtrans %}', n="Estonie") == "d'Estonie"


def test_the_html_parts_elide_as_the_text_does() -> None:
    """A reply's and a report's HTML part say what their text part says, values escaped."""
    env = make_environment("fr")
    env.autoescape = True  # as for templates/*/*.html.j2
    assert env.from_string('{{ _("of %(name)s", name=n) }}').render(n="Azov <b>") == \
        "d'Azov &lt;b&gt;"


def test_que_le_la_and_a_capital_de_are_elided_as_de_is() -> None:
    """Viking's "in the {wind}" is "dans le {wind}": "dans l'Est", "dans l'Ouest"."""
    assert translate(msg("in the {wind}", wind="Est"), "fr") == "dans l'Est"
    assert translate(msg("in the {wind}", wind="Nord"), "fr") == "dans le Nord"
    assert elided_literals([("plus que ", "Olaf"), (" et la ", "Estonie"), (". De ", "Islande")],
                           "fr") == ["plus qu'", " et l'", ". D'"]


def test_an_h_is_left_alone_as_gm_cannot_tell_a_mute_h_from_an_aspirate_one() -> None:
    assert translate(msg("buying {tile}", tile="Hel"), "fr") == "l'achat de Hel"


def test_a_digit_is_not_elided() -> None:
    assert translate(msg("buying {tile}", tile="8 silfr"), "fr") == "l'achat de 8 silfr"
    assert said('{{ _("of %(name)s", name=n) }}', n="1880") == "de 1880"


def test_only_the_word_right_before_the_value_and_only_a_whole_word() -> None:
    """"de" ending a word ("monde"), or ending the value before ("{a} {b}"), is not the
    template's "de"; a word two words back is not elided."""
    assert translate(msg("{a} {b}", a="le monde", b="Islande"), "fr") == "le monde Islande"
    assert translate(msg("{a} {b}", a="route de", b="Islande"), "fr") == "route de Islande"
    assert translate(msg("{a}, {b}", a="de", b="Islande"), "fr") == "de, Islande"
    assert said('{{ _("%(power)s journeys from home to %(path)s.", power=p, path=t) }}',
                p="Rouge", t="Islande") == "Rouge part de son foyer vers Islande."


def test_a_list_is_elided_by_its_first_name() -> None:
    """"de Islande, Norvège": French elides before the first; the others keep their commas."""
    assert said('{{ _("the garrison of %(garrison)s", garrison=p) }}', p="Islande, Norvège") == \
        "la garnison d'Islande, Norvège"
    assert said('{{ _("the garrison of %(garrison)s", garrison=p) }}', p="Norvège, Islande") == \
        "la garnison de Norvège, Islande"


def test_a_quoted_name_is_not_elided() -> None:
    """« Envoy » starts with a guillemet: "de « Envoy »" is French as it is."""
    assert translate(msg("buying {tile}", tile="« Envoy »"), "fr") == "l'achat de « Envoy »"


def test_english_is_unchanged() -> None:
    assert translate(msg("buying {tile}", tile="Envoy"), "en") == "buying Envoy"
    line = '{{ _("%(power)s journeys from %(start)s to %(path)s.", power=p, start=s, path=t) }}'
    assert said(line, "en", p="red", s="Iceland", t="Norway") == "red journeys from Iceland to Norway."
    assert said('{{ _("of %(name)s", name=n) }}', "en", n="Azov") == "of Azov"


def test_an_orders_echo_is_said_word_for_word_as_the_grammar_reads_it() -> None:
    """orders.md §2: the echo "re-parses to an equal order"; the grammars read "de", not "d'"."""
    echo = Echo(msg("journey from {start} to {path}", start="Islande", path="Norvège"))
    assert translate(echo, "fr") == "voyager de Islande vers Norvège"
    assert translate(msg("{verdict}: {reason}", verdict=echo, reason=msg("buying {tile}",
                                                                        tile="Envoy")), "fr") \
        == "voyager de Islande vers Norvège : l'achat d'Envoy"
    assert str(echo) == "journey from Islande to Norvège"


def test_a_stored_echo_is_said_word_for_word_again() -> None:
    """A report says a refused order from its stored data (``order_msg``) as the reply did."""
    echo = Echo(msg("journey from {start} to {path}", start="Islande", path="Norvège"))
    back = from_data(as_data(echo))
    assert isinstance(back, Echo)
    assert translate(back, "fr") == "voyager de Islande vers Norvège"


def test_jinjas_own_gettext_elides_the_text_as_gms_does() -> None:
    """tests/service/test_render_gettext.py compares gm's gettext with Jinja's own."""
    line = '{{ _("%(power)s journeys from %(start)s to %(path)s.", power=p, start=s, path=t) }}'
    env = make_environment("fr", stock=True)
    env.autoescape = False
    stock = env.from_string(line)
    assert stock.render(p="Rouge", s="Islande", t="Norvège") == "Rouge voyage d'Islande vers Norvège."
