"""rulespec/prose.py: DSL formulas and conditions read as sentences, in every language of
the rulebook catalogs (rulespec/rulebook_i18n/)."""
from __future__ import annotations

import re

import pytest

from rulespec import dsl
from rulespec.formula import BUILTINS
from rulespec.prose import Prose
from rulespec.rulebook_i18n import LANGUAGES, catalog

from interpreter.engine.context import PLAY_NAMES, play_env
from interpreter.engine.game import load_game
from interpreter.engine.tables import _hand_env


def parse(text: str) -> dsl.Expr:
    return dsl.parse_expr(text, lambda offset: None)


def prose(language: str = "en") -> Prose:
    return Prose(catalog(language), lambda name: name.replace("_", " "))


# One expression per node kind and operator of the DSL grammar (rulespec/dsl.lark).
EVERY_CONSTRUCT = [
    "3", "true", "false", "'mano'", "trick", "options.flor", "suited(2)", "best_suited(3)", "max(1, total)",
    "min(total)", "abs(score_us - score_them)", "[1, 2]", "not played", "-last",
    "is_mano or is_pie", "my_turn and answering", "trick == 1", "trick != 2", "calls < 2", "calls <= 2",
    "calls > 1", "calls >= 1", "trick in [1, 2]", "trick not in [1, 2]", "total + 1", "target - leader",
    "3 * declared", "total // 2", "total % 10", "if calls == 1 then 1 else total_but_last",
    "if trumps >= 2 then top(1) + rest_mod(10) else if trumps == 0 then 20 + sum_points else sum_points",
    "called('vale_cuatro') and not accepted('truco')", "idle('envido')", "in_chain('envido') < 2",
    "not (trick == 1 or played)", "not (trick == 1 and played) or counting", "(total + 1) // 2 * 3",
    "if counting then can_beat else true", "rank_count(4) == 2 and figures == 1", "unknown_name + 1",
]
DSL_TOKENS = re.compile(r"==|!=|<=|>=|//|%|\boptions\.|\b[a-z]+_[a-z_]+\b|\bif\b.*\bthen\b|\[|\]|`|\w\(")


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
@pytest.mark.parametrize("text", EVERY_CONSTRUCT)
def test_every_construct_reads_as_words(language: str, text: str) -> None:
    e = parse(text)
    p = prose(language)
    for sentence in (p.cond(e), p.amount(e)):
        assert sentence and not DSL_TOKENS.search(sentence), sentence


def test_readings_in_english() -> None:
    p = prose()
    assert p.cond(parse("trick == 1 and not played and stake_level == 0")) == \
        "it is the first trick, the player has not played a card yet and no stake call has been accepted"
    assert p.amount(parse("if suited(2) then 20 + best_suited(2) else best_single")) == \
        ("20 plus the points of the best 2 cards of one suit if the hand holds 2 cards of one suit; "
         "otherwise the points of the best card")
    # a negation is pushed inside (De Morgan), comparisons flip
    assert p.cond(parse("not (trick == 2 or played)")) == \
        "the number of the trick being played is not 2 and the player has not played a card yet"
    assert p.cond(parse("not (calls < 2)")) == "the number of calls made is at least 2"
    # the tree's grouping survives: (a - b) - c and a - (b - c) read differently
    left, right = p.amount(parse("(total - last) - 1")), p.amount(parse("total - (last - 1)"))
    assert left == "the difference of the sum of the calls accepted and the worth of the last call minus 1"
    assert right == "the sum of the calls accepted minus the difference of the worth of the last call and 1"
    # a mixed and/or keeps its grouping
    assert p.cond(parse("is_mano or (is_pie and counting)")) == \
        "the player is the mano or both the player is the pie (last of its team to play) and the points are being counted"
    assert p.amount(parse("trick in [1, 2]")) == "the number of the trick being played is 1 or 2"


def test_readings_in_spanish_and_french() -> None:
    es, fr = prose("es"), prose("fr")
    e = parse("trick == 1 and not played and stake_level == 0")
    assert es.cond(e) == ("se juega la primera baza, el jugador todavía no jugó ninguna carta y no se quiso "
                          "ningún canto de la apuesta")
    assert fr.cond(e) == ("on joue la première levée, le joueur n'a encore joué aucune carte et aucune enchère "
                          "n'a été acceptée")
    assert es.amount(parse("target - leader")) == "lo que le falta al que va ganando para ganar el partido"
    assert fr.amount(parse("3 * declared")) == "3 fois le nombre de mains comparées"


def _engine_names() -> tuple[set[str], set[str]]:
    """Every name and function a formula may use, as the engine defines them."""
    game = load_game("uruguayo")
    hand = _hand_env(game.cards, {})
    play = play_env({}, set(game.call_names), {c.name: i for i, c in enumerate(game.spec.contests)})
    names = set(PLAY_NAMES) | set(hand.names)
    functions = set(play.functions) | set(hand.functions) | set(BUILTINS)
    return names, functions


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_phrase_every_name_the_engine_knows(language: str) -> None:
    module = __import__(f"rulespec.rulebook_i18n.{language}", fromlist=["x"])
    names, functions = _engine_names()
    assert names <= set(module.NAMES), sorted(names - set(module.NAMES))
    assert functions <= set(module.FUNCTIONS), sorted(functions - set(module.FUNCTIONS))


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_catalogs_are_complete(language: str) -> None:
    """A rulebook in a language never falls back to English mid-sentence."""
    en = __import__("rulespec.rulebook_i18n.en", fromlist=["x"])
    module = __import__(f"rulespec.rulebook_i18n.{language}", fromlist=["x"])
    for table in ("MESSAGES", "NAMES", "FUNCTIONS", "IDIOMS"):
        assert set(getattr(en, table)) == set(getattr(module, table)), table
    for key, text in en.MESSAGES.items():           # same placeholders
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", module.MESSAGES[key])) or \
            key == "art.contest", key


def test_unknown_language_is_english() -> None:
    assert catalog("xx").language == "en" and catalog(None)("art.match") == "The match"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_name_no_call_of_a_spec(language: str) -> None:
    """A catalog says "the stake", "a call", "the contest": the names of calls, contests and hand
    values come from the spec (a house variant may name them otherwise)."""
    from tests.interpreter.test_no_variant_names import variant_names
    names = variant_names()
    defined = {w.lower() for kind in ("stake call", "contest", "contest call", "value") for w in names[kind]}
    module = __import__(f"rulespec.rulebook_i18n.{language}", fromlist=["x"])
    texts = [*module.MESSAGES.values(), *module.IDIOMS.values()]
    for table in (module.NAMES, module.FUNCTIONS):
        for value in table.values():
            texts += list(value) if isinstance(value, tuple) else [value]
    words = {w.lower() for text in texts for w in re.findall(r"[A-Za-zÀ-ÿ_]+", text)}
    assert not words & defined, sorted(words & defined)


@pytest.mark.parametrize("language,text,reading", [
    ("en", "target == 30", "the points needed to win the match are 30"),
    ("en", "leader < 15", "the leading team's score is less than 15"),
    ("en", "best_single >= 7", "the points of the best card are at least 7"),
    ("es", "target == 30 and leader < 15",
     "los puntos necesarios para ganar el partido son 30 y los puntos del equipo que va ganando son menos que 15"),
    ("es", "trick == 2", "se juega la segunda baza"),
    ("fr", "target == 30", "les points qu'il faut pour gagner la partie valent 30"),
    ("fr", "leader < 15", "les points de l'équipe en tête sont inférieurs à 15"),
    ("pt", "target != 30", "os pontos necessários para ganhar a partida não são 30"),
    ("pt", "calls < 2", "o número de pedidos feitos é menor que 2"),
])
def test_a_comparison_agrees_with_its_subject(language: str, text: str, reading: str) -> None:
    """Issue 35: "si los puntos necesarios para ganar el partido es 30" / "the points … is 30". A
    plural subject (the catalog's PLURAL) takes the plural verb; a singular one keeps its own."""
    assert prose(language).cond(parse(text)) == reading
